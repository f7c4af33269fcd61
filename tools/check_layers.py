#!/usr/bin/env python3
"""Checks the runtime's layering: every file under runtime/ belongs to a
layer folder, and every #include "..." of a runtime file names a file of its
own layer or of a layer below it (runtime/CMakeLists.txt declares the layers
and what each builds on; the build enforces the same through include paths,
but only for what it compiles). Prints one line per violation and exits 1 if
there is any.

usage: check_layers.py RUNTIME_DIR LAYER:BELOW,BELOW ...
e.g.   check_layers.py runtime base: types:base comm:base,types ...
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCES = (".h", ".hpp", ".cpp", ".cc", ".c", ".inc")


def parse_layers(specs):
    """{layer: set of layers it may include (itself and those below)}."""
    layers = {}
    for spec in specs:
        name, _, below = spec.partition(":")
        layers[name] = {name} | {b for b in below.split(",") if b}
    for name, allowed in layers.items():
        unknown = allowed - layers.keys()
        if unknown:
            sys.exit(f"check_layers: layer {name} builds on unknown layers {sorted(unknown)}")
    return layers


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    root, layers = argv[1], parse_layers(argv[2:])
    problems = []
    files = {}
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(SOURCES):
                rel = os.path.relpath(os.path.join(directory, name), root)
                files[rel] = os.path.join(directory, name)
    for rel, path in sorted(files.items()):
        layer = rel.split(os.sep)[0] if os.sep in rel else None
        if layer not in layers:
            problems.append(f"{rel}: not in a layer folder ({', '.join(layers)})")
            continue
        text = open(path, encoding="utf-8", errors="replace").read()
        for number, line in enumerate(text.splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            name = match.group(1)
            if name.startswith("pure/"):
                continue  # the public headers (include/pure): every layer may use them
            if ".." in name.split("/"):
                problems.append(f"{rel}:{number}: #include \"{name}\": name the layer folder, not ..")
                continue
            # As the compiler resolves it: next to the file, then from the layers' root.
            beside = os.path.normpath(os.path.join(os.path.dirname(rel), name))
            target = beside if beside in files else name if name in files else None
            if target is None:
                problems.append(f"{rel}:{number}: #include \"{name}\": no such runtime file")
                continue
            target_layer = target.split(os.sep)[0]
            if target_layer not in layers[layer]:
                problems.append(
                    f"{rel}:{number}: #include \"{name}\": layer {layer} may not include "
                    f"{target_layer} (it builds on {', '.join(sorted(layers[layer] - {layer})) or 'nothing'})")
    for p in problems:
        print(p)
    print(f"check_layers: {len(files)} files in {len(layers)} layers, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
