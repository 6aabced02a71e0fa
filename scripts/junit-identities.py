#!/usr/bin/env python3
"""Reads JUnit reports the way CI does (junitparser) and checks the test identities.

For each report: every (classname, name) pair occurs once; with --no-skips, no testcase is
skipped. Prints one line per report (testcases, repeated pairs, skipped) and exits 1 when a
check fails. Used by scripts/junit-consumers (issue 22) as the real consumer of Accord's JUnit.

    scripts/junit-identities.py [--no-skips] REPORT.xml...
"""
import collections
import sys

try:
    from junitparser import JUnitXml, Skipped
except ImportError:
    sys.exit("junit-identities: needs junitparser (pip install junitparser)")


def check(path, no_skips):
    xml = JUnitXml.fromfile(path)
    suites = [xml] if xml._tag == "testsuite" else list(xml)
    pairs = collections.Counter()
    skipped = 0
    cases = 0
    for suite in suites:
        for case in suite:
            cases += 1
            pairs[(case.classname, case.name)] += 1
            if any(isinstance(result, Skipped) for result in case.result):
                skipped += 1
    repeated = {pair: count for pair, count in pairs.items() if count > 1}
    print(f"{path}: {cases} testcases, {len(repeated)} repeated (classname, name) pairs, {skipped} skipped")
    for (classname, name), count in sorted(repeated.items())[:10]:
        print(f"  repeated {count}x: {classname} : {name}")
    ok = not repeated and cases > 0
    if no_skips and skipped:
        print(f"  expected no skipped testcase, found {skipped}")
        ok = False
    return ok


def main(argv):
    no_skips = "--no-skips" in argv
    paths = [arg for arg in argv if arg != "--no-skips"]
    if not paths:
        sys.exit(__doc__)
    results = [check(path, no_skips) for path in paths]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
