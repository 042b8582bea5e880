#!/usr/bin/env python3
"""Writes the Swift blocks of docs/INTEGRATION.md that use UIKit as functions to type-check.

A block is taken when the line before its ```swift fence is a marker:

    <!-- uikit-typecheck: NAME: TYPE, ... -->                     a function with those parameters
    <!-- uikit-typecheck: extension TYPE; NAME: TYPE, ... -->      a method of TYPE (for `self`'s members)

The block becomes the body of a throwing @MainActor function, with #sourceLocation
directives so that the compiler's messages name the guide's lines. Usage:

    snippets.py GUIDE OUT.swift     prints how many blocks it wrote
"""
import re
import sys

MARKER = re.compile(r"^<!-- uikit-typecheck: (?:extension (?P<ext>[A-Za-z_][A-Za-z0-9_]*); )?(?P<params>.*) -->$")


def main(guide, out):
    lines = open(guide, encoding="utf-8").read().split("\n")
    parts = ["import SelectLog", "import SelectLogStore", "import UIKit", ""]
    count = 0
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        if i + 1 >= len(lines) or lines[i + 1] != "```swift":
            sys.exit(f"{guide}:{i + 1}: a uikit-typecheck marker must be right above a ```swift fence")
        start = i + 2
        end = start
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            sys.exit(f"{guide}:{i + 2}: the block has no closing fence")
        name = f"snippet{start}"
        body = [f'#sourceLocation(file: "{guide}", line: {start + 1})'] + lines[start:end] + ["#sourceLocation()"]
        head = f"func {name}({m.group('params')}) throws {{"
        if m.group("ext"):
            parts += [f"extension {m.group('ext')} {{", "    " + head] + body + ["    }", "}", ""]
        else:
            parts += ["@MainActor " + head] + body + ["}", ""]
        count += 1
        i = end + 1
    if count == 0:
        sys.exit(f"{guide}: no uikit-typecheck markers")
    open(out, "w", encoding="utf-8").write("\n".join(parts))
    print(count)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
