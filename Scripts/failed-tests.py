#!/usr/bin/env python3
"""Prints a `swift test --filter` pattern for each test an xUnit report shows as failed.

Usage: failed-tests.py REPORT.xml

CI runs the suite with `--xunit-output`; when a run fails, the tests that failed are run again
alone, one at a time, and each must pass then (see `.ci/run`). Prints nothing if the report has
no failed test, and exits 2 if there is no report (the test process crashed before writing one).
"""

import re
import sys
import xml.etree.ElementTree as ElementTree


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        root = ElementTree.parse(sys.argv[1]).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"no test report to read: {error}", file=sys.stderr)
        return 2
    patterns: dict[str, None] = {}
    for case in root.iter("testcase"):
        if case.find("failure") is None and case.find("error") is None:
            continue
        # Swift Testing's filter matches "Module.Suite/Nested/function(labels:)", where the report
        # writes "Module.Suite.Nested": any dot of the class name may be either.
        suite = re.escape(case.get("classname", "")).replace(r"\.", "[./]")
        patterns.setdefault(f"{suite}/{re.escape(case.get('name', ''))}")
    for pattern in patterns:
        print(pattern)
    return 0


if __name__ == "__main__":
    sys.exit(main())
