#!/usr/bin/env python3
"""Writes the README's table of the slowest tests from ctest's own timings.

usage: tools/gen-readme-slowest.py [JUNIT.xml] [--count N] [--print]

JUNIT.xml is the JUnit report that tools/test.sh's Release step writes
(build/Testing/release.xml, ctest --output-junit): one run of the default
tier on this machine. The table replaces what lies between the README's
markers `<!-- slowest-tests:begin -->` and `<!-- slowest-tests:end -->`;
--print shows it instead.
"""
import argparse
import pathlib
import sys
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN = "<!-- slowest-tests:begin -->"
END = "<!-- slowest-tests:end -->"


def table(junit: pathlib.Path, count: int) -> str:
    suite = ET.parse(junit).getroot()
    cases = [(float(c.get("time", "0")), c.get("name", "?"), c) for c in suite.iter("testcase")]
    cases.sort(key=lambda t: -t[0])
    total = sum(t for t, _, _ in cases)
    lines = [
        f"The {count} slowest of {len(cases)} tests in one run of the default tier's Release",
        f"step ({total / 60:.1f} min of test time in all, two at a time), from",
        "`tools/gen-readme-slowest.py build/Testing/release.xml`:",
        "",
        "| test | seconds | result |",
        "|---|---:|---|",
    ]
    for seconds, name, case in cases[:count]:
        result = "failed" if case.find("failure") is not None else "passed"
        if case.get("status") == "notrun" or case.find("skipped") is not None:
            result = "not run"
        lines.append(f"| `{name}` | {seconds:.1f} | {result} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit", nargs="?", default=str(ROOT / "build/Testing/release.xml"))
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--print", action="store_true", help="print the table, leave README alone")
    args = parser.parse_args()
    junit = pathlib.Path(args.junit)
    if not junit.is_file():
        print(f"gen-readme-slowest: no JUnit report at {junit}; run tools/test.sh first",
              file=sys.stderr)
        return 2
    text = table(junit, args.count)
    if args.print:
        sys.stdout.write(text)
        return 0
    readme = ROOT / "README.md"
    content = readme.read_text()
    if BEGIN not in content or END not in content:
        print(f"gen-readme-slowest: README.md lacks the markers {BEGIN} ... {END}", file=sys.stderr)
        return 2
    head, rest = content.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{text}{END}{tail}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
