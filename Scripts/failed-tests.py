#!/usr/bin/env python3
"""Prints a `swift test --filter` pattern for each test an xUnit report shows as failed.

Usage: failed-tests.py REPORT.xml

CI runs the suite with `--xunit-output`; when a run fails, the tests that failed are run again
alone, one at a time, and each must pass then (see `.ci/run`). Prints nothing if the report has
no failed test, and exits 2 if there is no report (the test process crashed before writing one)
or if it counts a failure it lists under no test.
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
    # An issue recorded outside a test (a suite's own, say) is counted, but listed under no test:
    # retrying the tests listed would pass over it.
    counted = sum(int(suite.get("failures", "0")) + int(suite.get("errors", "0"))
                  for suite in root.iter("testsuite"))
    listed = sum(len(case.findall("failure")) + len(case.findall("error"))
                 for case in root.iter("testcase"))
    if counted > listed:
        print(f"the report counts {counted} failures but lists {listed} under tests: "
              "a failure outside a test is not retried", file=sys.stderr)
        return 2
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
