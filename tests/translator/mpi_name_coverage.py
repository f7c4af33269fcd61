#!/usr/bin/env python3
"""The translator never passes an MPI name through.

Feeds mpi2pure every MPI_/PMPI_ name of the given MPI headers (Open MPI's and
MPICH's mpi.h and the headers of theirs it includes), each as the body of a
macro of a C file, and checks that each is either translated into a Pure name
or reported as unsupported under its own name. Then checks the list of
unsupported names that the translator and the README share
(tools/mpi2pure/unsupported_names.txt): every name reported unsupported is
listed, and every line of the list still names something unsupported.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys

# The fields of MPI_Status keep their names in PURE_Status: a program's
# status.MPI_SOURCE stays as it is, by design.
STATUS_MEMBERS = {"MPI_SOURCE", "MPI_TAG", "MPI_ERROR"}


def names_in(paths):
    names = set()
    for path in paths:
        with open(path, errors="replace") as f:
            text = f.read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        names |= set(re.findall(r"\bP?MPI_[A-Za-z0-9_]+\b", text))
    return names


def read_list(path):
    """[(pattern, reason)] in file order."""
    entries, reason = [], None
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("## "):
                reason = line[3:]
            elif line and not line.startswith("#"):
                if reason is None:
                    sys.exit(f"{path}:{number}: {line} comes before any '## reason' line")
                entries.append((line, reason))
    return entries


def matches(pattern, name):
    # A pattern for MPI_X covers the profiling name PMPI_X too.
    bare = name[1:] if name.startswith("PMPI_") else name
    return fnmatch.fnmatchcase(bare, pattern)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--translator", required=True)
    ap.add_argument("--list", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("headers", nargs="+")
    args = ap.parse_args()

    names = sorted(names_in(args.headers) - STATUS_MEMBERS)
    entries = read_list(args.list)
    os.makedirs(args.work, exist_ok=True)
    source = os.path.join(args.work, "coverage.c")
    first_line = 2
    with open(source, "w") as f:
        f.write("#include <mpi.h>\n")
        for i, name in enumerate(names):
            f.write(f"#define PURE_COVERAGE_{i} {name}\n")
        f.write("int main(void) { return 0; }\n")
    out_dir = os.path.join(args.work, "out")
    run = subprocess.run([args.translator, "--allow-unsupported", "-o", out_dir, source],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"mpi2pure failed ({run.returncode}):\n{run.stderr}")
    warned = {}
    for m in re.finditer(r"coverage\.c:(\d+):\d+: warning: (P?MPI_\w+) is not supported by Pure"
                         r"(?: \((.*)\))?; left unchanged$", run.stderr, flags=re.M):
        warned[(int(m.group(1)), m.group(2))] = m.group(3)
    with open(os.path.join(out_dir, "coverage.c")) as f:
        out_lines = f.read().split("\n")

    problems, unsupported, translated = [], {}, []
    for i, name in enumerate(names):
        line = first_line + i
        text = out_lines[line - 1]
        expect = f"#define PURE_COVERAGE_{i} "
        if not text.startswith(expect):
            problems.append(f"line {line} of the output is not the macro of {name}: {text}")
            continue
        result = text[len(expect):]
        was_warned = (line, name) in warned
        if result != name:
            if not re.fullmatch(r"(pure|PURE)_\w+", result):
                problems.append(f"{name} became {result}, not a Pure name")
            if was_warned:
                problems.append(f"{name} was both translated (to {result}) and reported")
            translated.append(name)
        elif was_warned:
            unsupported[name] = warned[(line, name)]
        else:
            problems.append(f"{name} passed through silently: neither translated nor reported")

    for name, reason in unsupported.items():
        listed = [r for p, r in entries if matches(p, name)]
        if not listed:
            problems.append(f"{name} is unsupported but not in {args.list}: add it with a reason "
                            "(or support it)")
        elif reason != listed[0]:
            problems.append(f"{name} was reported with reason '{reason}', the list says "
                            f"'{listed[0]}'")
    for pattern, _ in entries:
        if not any(matches(pattern, n) for n in unsupported):
            problems.append(f"'{pattern}' in {args.list} names nothing unsupported any more: "
                            "remove it")
        if "*" not in pattern and any(matches(pattern, n) for n in translated):
            problems.append(f"'{pattern}' in {args.list} is translated now: remove it")

    by_reason = {}
    for reason in unsupported.values():
        by_reason[reason] = by_reason.get(reason, 0) + 1
    print(f"{len(names)} MPI names from {len(args.headers)} headers: {len(translated)} "
          f"translated, {len(unsupported)} reported unsupported, "
          f"{len(STATUS_MEMBERS)} status fields kept")
    for reason, count in sorted(by_reason.items(), key=lambda x: -x[1]):
        print(f"  {count:5d}  {reason}")
    if problems:
        print(f"{len(problems)} problem(s):")
        for p in problems:
            print("  " + p)
        return 1
    print("mpi_name_coverage: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
