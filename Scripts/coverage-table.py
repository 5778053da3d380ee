#!/usr/bin/env python3
"""Prints line coverage per library module from `swift test --enable-code-coverage`'s JSON.

Usage: coverage-table.py <codecov.json> <package root> [minimum percent]

Only library sources count: the files under Modules/<Layer>/ and Adapters/<Adapter>/ (not tests,
samples, benchmarks or generated files). Exits 1 if any module is below the minimum (85 unless given).
"""
import json
import os
import sys


def main() -> int:
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) > 1 else 64
    report, root = sys.argv[1], os.path.realpath(sys.argv[2])
    minimum = float(sys.argv[3]) if len(sys.argv) > 3 else 85.0
    roots = [os.path.join(root, folder) + os.sep for folder in ("Modules", "Adapters")]
    totals = {}
    with open(report) as handle:
        data = json.load(handle)
    for export in data["data"]:
        for entry in export["files"]:
            path = os.path.realpath(entry["filename"])
            base = next((r for r in roots if path.startswith(r)), None)
            if base is None:
                continue
            layer = path[len(base):].split(os.sep)[0]
            lines = entry["summary"]["lines"]
            covered, count = totals.get(layer, (0, 0))
            totals[layer] = (covered + lines["covered"], count + lines["count"])
    if not totals:
        print(f"error: no library sources under {' or '.join(roots)} in {report}", file=sys.stderr)
        return 1
    failed = []
    print(f"{'module':<22}{'lines':>8}{'covered':>9}{'coverage':>10}")
    for layer in sorted(totals):
        covered, count = totals[layer]
        percent = 100.0 * covered / count if count else 100.0
        mark = "" if percent >= minimum else f"   below {minimum:.0f}%"
        print(f"{'MVC' + layer:<22}{count:>8}{covered:>9}{percent:>9.1f}%{mark}")
        if percent < minimum:
            failed.append(layer)
    if failed:
        print(f"error: line coverage below {minimum:.0f}% in " + ", ".join("MVC" + m for m in failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
