#!/usr/bin/env python3
"""Checks a Swift file's #selector expressions against its @objc methods, for check.sh.

check.sh removes `@objc` and writes `#selector(...)` as a string, which the compiler no
longer checks, so this does what Apple's compiler would: each `#selector(name(a:b:))`
must be the selector of an `@objc` method of the file (its base name, its argument
labels and their count), and each parameter of an `@objc` method must be of a class
Objective-C can take: one the stand-in declares (UIKit.swift), or NSObject. Optional
parameters are allowed (`UIView?`). Prints one line per mistake and exits 1; exits 0
when there is none. Usage:

    selectors.py SOURCE.swift STANDIN.swift
"""
import re
import sys

METHOD = re.compile(r"@objc\s+(?:(?:private|fileprivate|internal|public|final)\s+)*func\s+([A-Za-z_]\w*)\s*\(([^)]*)\)")
SELECTOR = re.compile(r"#selector\(\s*([A-Za-z_]\w*)\s*(\([^)]*\))?\s*\)")
CLASS = re.compile(r"^(?:@MainActor\s+)?open\s+class\s+([A-Za-z_]\w*)", re.M)


def selector_of(name, params):
    """`name(_:label:)` for the parameter list `_ x: T, label y: U`, and the types."""
    labels, types = [], []
    for param in [p.strip() for p in params.split(",") if p.strip()]:
        names, _, type_ = param.partition(":")
        words = names.split()
        labels.append(words[0])
        types.append(type_.split("=")[0].strip())
    return f"{name}({''.join(label + ':' for label in labels)})", types


def main(source, standin):
    text = open(source, encoding="utf-8").read()
    classes = set(CLASS.findall(open(standin, encoding="utf-8").read())) | {"NSObject"}
    problems = []
    methods = {}
    for m in METHOD.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        selector, types = selector_of(m.group(1), m.group(2))
        methods.setdefault(m.group(1), []).append(selector)
        for type_ in types:
            if type_.rstrip("?!") not in classes:
                problems.append(f"{source}:{line}: @objc {selector}: Objective-C cannot take a parameter of type {type_}")
    for m in SELECTOR.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        name, args = m.group(1), m.group(2)
        known = methods.get(name, [])
        if not known:
            problems.append(f"{source}:{line}: #selector({name}{args or ''}) names no @objc method of the file")
        elif args is None and len(known) > 1:
            problems.append(f"{source}:{line}: #selector({name}) is ambiguous: {', '.join(known)}")
        elif args is not None and f"{name}{args.replace(' ', '')}" not in known:
            problems.append(f"{source}:{line}: #selector({name}{args}) is no @objc method's selector (the file has {', '.join(known)})")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
