#!/usr/bin/env bash
# Applies each worked example of the guide's article "Changing the package"
# (Documentation/Examples/*.diff) to this checkout, builds, runs the whole test suite,
# and takes the example back out. Run it on a copy you do not mind changing (CI runs it on its
# clean clone); it refuses to start on a checkout with uncommitted changes.
#
# Usage: Scripts/check-worked-examples.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "error: the checkout has uncommitted changes; the examples are applied to a clean one" >&2
    exit 64
fi

for diff in Documentation/Examples/*.diff; do
    name=$(basename "$diff" .diff)
    echo "--- $name: $(grep -c '^diff --git' "$diff") files"
    git apply "$diff"
    trap 'git apply -R "$diff" 2>/dev/null || true' EXIT
    swift build --build-tests
    # What the build wrote is written out first: a test's fsync would wait behind it.
    sync
    # The whole suite, no filter: a change is checked whole (a test that spells the fields by hand
    # elsewhere would otherwise pass unseen).
    # A failed test is run again alone, once (Scripts/retry-failed-tests.sh says why).
    rm -f .build/worked-example.xml
    swift test --disable-xctest --skip-build \
        --xunit-output .build/worked-example.xml ||
        Scripts/retry-failed-tests.sh .build/worked-example.xml .build/worked-example-retried.log \
            swift test --disable-xctest --skip-build
    # A smoke session the example changes must match the example's new expected output (only the
    # attractions sample has a smoke session, and --store is its option).
    for expected in $(git diff --name-only -- '.ci/smoke/*.expected'); do
        sample=$(basename "$expected" .expected)
        scratch=$(mktemp -d)
        status=0
        .build/debug/"$sample" --store "$scratch/$sample.json" <".ci/smoke/$sample.script" \
            >"$scratch/actual" 2>&1 || status=$?
        echo "exit status: $status" >>"$scratch/actual"
        diff -u "$expected" "$scratch/actual"
        rm -rf "$scratch"
    done
    git apply -R "$diff"
    trap - EXIT
done
echo "every worked example applies, builds and passes its tests"
