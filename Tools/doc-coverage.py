#!/usr/bin/env python3
"""Fails when a public declaration of SelectLog or SelectLogStore has no doc comment.

A declaration is public when it is written `public`, `open`, or sits in a
`public extension` without an access keyword of its own. Its doc comment is the
`///` (or `/** */`) block right above it, attributes such as `@inlinable` in
between allowed. Enum cases of a public enum count as public. Implementations of the
standard library's protocol requirements (`==`, `<`, `hash(into:)`, `description`,
`makeIterator()`, `next()`) inherit their documentation in DocC and are not counted. Cheap: a line scan,
no compiler. Usage: python3 Tools/doc-coverage.py [ROOT]
"""
import os
import re
import sys

ROOTS = ["Sources/SelectLog", "Sources/SelectLogStore"]
DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?P<access>public|open|package|internal|private|fileprivate)?\s*"
    r"(?:(?:final|static|class|mutating|nonmutating|nonisolated|override|convenience|required|indirect|lazy|dynamic|consuming|borrowing)\s+)*"
    r"(?P<kind>struct|enum|class|actor|protocol|typealias|func|init\??|subscript|var|let|case|extension|associatedtype)\b"
)
INHERITED = re.compile(
    r"\b(static func (==|<) |func hash\(into|var (debugD|d)escription: String|func makeIterator\(\)|mutating func next\(\))"
)
ACCESS_EXT = re.compile(r"^\s*(public|package|internal|private|fileprivate)\s+extension\b")


def documented(lines, i):
    """True when the lines above i (skipping attributes) end a doc comment."""
    j = i - 1
    while j >= 0 and re.match(r"^\s*@\w+", lines[j]) and not lines[j].strip().startswith("///"):
        j -= 1
    if j < 0:
        return False
    above = lines[j].strip()
    return above.startswith("///") or above.endswith("*/") and "/**" in "".join(lines[max(0, j - 40):j + 1])


def scan(path):
    """Yields (line number, text) of undocumented public declarations in one file."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    depth = 0
    # Stack of (depth at which the scope's body opened, scope is public, scope is a public enum, scope is a func body).
    scopes = []
    pending = None
    for i, line in enumerate(lines):
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//")[0] if not line.strip().startswith("///") else "")
        stripped = line.strip()
        inner = scopes[-1] if scopes else None
        in_body = inner is not None and inner[3]
        m = DECL.match(line) if not stripped.startswith("//") and not in_body else None
        if m:
            access, kind = m.group("access"), m.group("kind")
            ext = ACCESS_EXT.match(line)
            if kind == "extension":
                is_public = ext is not None and ext.group(1) == "public"
                pending = (is_public, False, False)
            else:
                if access in ("public", "open"):
                    is_public = True
                elif access is None and inner is not None and inner[1] and kind != "case":
                    is_public = True  # a member of a `public extension`
                elif kind == "case" and inner is not None and inner[2]:
                    is_public = True  # a case of a public enum
                else:
                    is_public = False
                if is_public and not INHERITED.search(line) and not documented(lines, i):
                    yield i + 1, stripped
                if kind in ("struct", "enum", "class", "actor", "protocol"):
                    # Members of a public type need their own `public`; only cases inherit it.
                    pending = (False, is_public and kind == "enum", False)
                elif kind in ("func", "init", "init?", "subscript", "var", "let"):
                    pending = (False, False, True)
        opened = code.count("{")
        closed = code.count("}")
        for _ in range(opened):
            depth += 1
            if pending is not None:
                scopes.append((depth,) + pending)
                pending = None
            else:
                scopes.append((depth, False, False, True))  # a closure, a switch, an accessor: code
        for _ in range(closed):
            if scopes and scopes[-1][0] == depth:
                scopes.pop()
            depth -= 1
    return


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    missing = []
    count = 0
    for base in ROOTS:
        for dirpath, _, files in os.walk(os.path.join(root, base)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(dirpath, name)
                    for line, text in scan(path):
                        missing.append(f"{os.path.relpath(path, root)}:{line}: public declaration without a doc comment: {text}")
                    count += 1
    for m in missing:
        print(m, file=sys.stderr)
    if missing:
        print(f"doc-coverage: {len(missing)} public declarations without a doc comment", file=sys.stderr)
        return 1
    print(f"doc-coverage: every public declaration in {count} files of {', '.join(ROOTS)} has a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
