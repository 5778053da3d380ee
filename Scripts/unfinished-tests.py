#!/usr/bin/env python3
"""Names the tests a Swift Testing log shows as started and never finished.

Usage: unfinished-tests.py LOG

CI runs each test command under a time limit; when one runs out, this says which tests were still
running, so that a hang is named instead of only timed.
"""

import re
import sys

STARTED = re.compile(r'^◇ Test (?:case passing .* to )?"(.*)" started\.$')
FINISHED = re.compile(r'^[✔✘━] Test "(.*?)" (?:with \d+ test cases? )?(?:passed|failed|skipped)')


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    started: dict[str, None] = {}
    finished: set[str] = set()
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            if match := STARTED.match(line):
                started.setdefault(match.group(1))
            elif match := FINISHED.match(line):
                finished.add(match.group(1))
    unfinished = [name for name in started if name not in finished]
    if not unfinished:
        print("every test that started finished (the hang is outside a test, or before one)")
    for name in unfinished:
        print(f"still running: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
