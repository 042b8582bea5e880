#!/usr/bin/env python3
"""Writes the Swift blocks of the guides that use UIKit as functions to type-check.

A block is taken when the line before its ```swift fence is a marker:

    <!-- uikit-typecheck: NAME: TYPE, ... -->                     a function with those parameters
    <!-- uikit-typecheck: extension TYPE; NAME: TYPE, ... -->      a method of TYPE (for `self`'s members)

The block becomes the body of a throwing @MainActor function, with #sourceLocation
directives so that the compiler's messages name the guide's lines. Usage:

    snippets.py GUIDE... OUT.swift     prints how many blocks it wrote of each guide
"""
import re
import sys

MARKER = re.compile(r"^<!-- uikit-typecheck: (?:extension (?P<ext>[A-Za-z_][A-Za-z0-9_]*); )?(?P<params>.*) -->$")


def blocks(guide, number):
    """The Swift of each marked block of `guide` (the `number`th guide), and their count."""
    lines = open(guide, encoding="utf-8").read().split("\n")
    parts = []
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
        name = f"snippet{number}_{start}"
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
    return parts, count


def main(guides, out):
    parts = ["import SelectLog", "import SelectLogStore", "import UIKit", ""]
    counts = []
    for number, guide in enumerate(guides):
        swift, count = blocks(guide, number)
        parts += swift
        counts.append(f"{count} of {guide}")
    open(out, "w", encoding="utf-8").write("\n".join(parts))
    print(", ".join(counts))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1:-1], sys.argv[-1])
