#!/usr/bin/env python3
"""Fails when a public declaration of SelectLog or SelectLogStore has no doc comment.

A declaration is public when it is written `public`, `open`, or sits in a
`public extension` without an access keyword of its own. Its doc comment is the
`///` (or `/** */`) block right above it, attributes such as `@inlinable` in
between allowed. Enum cases of a public enum count as public. Implementations of the
standard library's protocol requirements (`==`, `<`, `hash(into:)`, `description`,
`makeIterator()`, `next()`) inherit their documentation in DocC and are not counted. A
doc comment with a parameter section (`- Parameters:`, `- Parameter x:`) must name every
parameter of its function and no other, as DocC requires (`make docs` fails otherwise).
Cheap: a line scan, no compiler. Usage: python3 Tools/doc-coverage.py [ROOT]
"""
import os
import re
import sys

ROOTS = ["Sources/SelectLog", "Sources/SelectLogStore"]
DECL = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?P<access>public|open|package|internal|private|fileprivate)?\s*"
    r"(?:(?:public|package|internal|private|fileprivate)\(set\)\s+)?"
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


PARAMS_HEAD = re.compile(r"^\s*///\s*- Parameters:\s*$")
PARAMS_ITEM = re.compile(r"^\s*///\s+- (\w+):")
PARAM_ONE = re.compile(r"^\s*///\s*- Parameter (\w+):")


def doc_block(lines, i):
    """The `///` lines right above declaration line i (attributes skipped)."""
    j = i - 1
    while j >= 0 and re.match(r"^\s*@\w+", lines[j]) and not lines[j].strip().startswith("///"):
        j -= 1
    block = []
    while j >= 0 and lines[j].strip().startswith("///"):
        block.insert(0, lines[j])
        j -= 1
    return block


def documented_parameters(block):
    """The parameter names a doc comment lists, or None when it has no parameter section."""
    names, listed, inside = [], False, False
    for line in block:
        one = PARAM_ONE.match(line)
        if one:
            names.append(one.group(1))
            listed, inside = True, False
        elif PARAMS_HEAD.match(line):
            listed, inside = True, True
        elif inside:
            item = PARAMS_ITEM.match(line)
            if item and re.match(r"^\s*///\s{2,}- ", line):
                names.append(item.group(1))
            elif re.match(r"^\s*///\s*- \w", line):
                inside = False  # the next callout (`- Returns:`, `- Throws:`)
    return names if listed else None


def signature_parameters(lines, i):
    """The parameter names (the inner ones) of the func, init or subscript at line i."""
    text = " ".join(lines[i:i + 20])
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
    start = text.find("(", text.find("func ") + 1 if "func " in text else 0)
    # Generic parameters (`func f<T: P>(`) come before the list.
    if "<" in text[:start] and "func " in text:
        depth, k = 0, text.find("<", text.find("func "))
        while k < len(text):
            depth += text[k] == "<"
            depth -= text[k] == ">"
            if depth == 0:
                break
            k += 1
        start = text.find("(", k)
    if start < 0:
        return []
    depth, k, parts, current = 0, start, [], ""
    while k < len(text):
        c = text[k]
        if text.startswith("->", k):
            # A closure type's arrow: its `>` closes nothing.
            current += "->"
            k += 2
            continue
        if c in "([<":
            depth += 1
            if depth == 1:
                k += 1
                continue
        elif c in ")]>":
            depth -= 1
            if depth == 0:
                parts.append(current)
                break
        if c == "," and depth == 1:
            parts.append(current)
            current = ""
        else:
            current += c
        k += 1
    names = []
    for part in parts:
        head = part.split(":")[0].split()
        head = [w for w in head if not w.startswith("@") and w not in ("inout", "borrowing", "consuming", "sending")]
        if head:
            names.append(head[-1])
    return [n for n in names if n != "_"]


def scan_parameters(path):
    """Yields (line number, message) where a doc comment's parameter section does not
    name every parameter (DocC fails `make docs` on it) or names one there is not."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if not re.match(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public|open)\b.*\b(func|init\??|subscript)\b", line):
            continue
        listed = documented_parameters(doc_block(lines, i))
        if listed is None:
            continue
        actual = signature_parameters(lines, i)
        missing = [n for n in actual if n not in listed]
        extra = [n for n in listed if n not in actual]
        if missing:
            yield i + 1, "parameters missing from its doc comment: " + ", ".join(missing)
        if extra:
            yield i + 1, "its doc comment documents parameters it does not have: " + ", ".join(extra)


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
                    for line, text in scan_parameters(path):
                        missing.append(f"{os.path.relpath(path, root)}:{line}: {text}")
                    count += 1
    for m in missing:
        print(m, file=sys.stderr)
    if missing:
        print(f"doc-coverage: {len(missing)} public declarations without a doc comment, or with parameters it does not document",
              file=sys.stderr)
        return 1
    print(f"doc-coverage: every public declaration in {count} files of {', '.join(ROOTS)} has a doc comment,"
          " and every parameter section names its parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
