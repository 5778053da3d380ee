#!/usr/bin/env bash
# Runs each test that a failed suite run's xUnit report names as failed once more, alone and with
# no other test running, and passes only if every one passes then. Each one that does is named on
# standard error as FLAKY (its first failure is in the whole run's log), so a flaky test is seen,
# never silently passed over. A run that left no report (the test process crashed or hung), or
# one whose report counts a failure outside any test it lists, is not retried.
#
# Why: several tests start other programs (SQLite's shell, a sample, a second process on one file)
# and wait for them; on a loaded 2-core machine, under a sanitizer that slows everything several
# times, one of 500 such waits now and then runs out. A real bug fails alone too.
#
# Usage: Scripts/retry-failed-tests.sh REPORT.xml LOG swift test ARGUMENTS...
#   ARGUMENTS are the failed run's; `--enable-code-coverage` is dropped (a retry's coverage would
#   be of one test; the coverage stage runs the whole suite again for its data) and `--skip-build`
#   added: the suite is built already.
set -euo pipefail
cd "$(dirname "$0")/.."

report=$1 log=$2
shift 2
patterns=$(python3 Scripts/failed-tests.py "$report") || exit 1
if [ -z "$patterns" ]; then
    echo "the run failed, but its report names no failed test: nothing to retry" >&2
    exit 1
fi
if [ "$(wc -l <<<"$patterns")" -gt 5 ]; then
    echo "more than five tests failed: that is no flake, and nothing is retried" >&2
    exit 1
fi

command=()
for argument in "$@"; do
    if [ "$argument" != --enable-code-coverage ]; then command+=("$argument"); fi
done
case " ${command[*]} " in *" --skip-build "*) ;; *) command+=(--skip-build) ;; esac
# An instrumented build run without coverage would write its profile into this checkout.
export LLVM_PROFILE_FILE=/tmp/retried-test-%p.profraw

: >"$log"
status=0
while IFS= read -r pattern; do
    echo "retrying alone: $pattern" >&2
    : >"$log.one"
    # A retry that runs no test (a pattern that matches none) is no pass.
    if timeout --signal=INT --kill-after=30 600 "${command[@]}" --no-parallel --filter "$pattern" \
        >"$log.one" 2>&1 && grep -qE "Test run with [1-9][0-9]* tests? .*passed" "$log.one"; then
        echo "FLAKY: $pattern failed in the whole run and passed alone (see the whole run's log)" >&2
        # Kept for CI's closing summary, which names every test that needed its retry.
        echo "$pattern" >>.build/flaky-tests.txt
    else
        echo "FAILED AGAIN, alone: $pattern" >&2
        status=1
    fi
    cat "$log.one" >>"$log"
done <<<"$patterns"
if [ "$status" -ne 0 ]; then grep -E -A12 "✘" "$log" | head -80 >&2 || true; fi
exit "$status"
