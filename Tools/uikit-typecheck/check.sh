#!/bin/bash
# Type-checks Sources/SelectLogUIKit, which only an Apple build compiles, against
# UIKit.swift here: a stand-in declaring the UIKit members the module uses. It catches
# a change to the core's API that the module's calls no longer match, and mistakes of
# type, optionality and Swift 6 isolation (data races included) in the module itself.
# Warnings are errors.
# Not on macOS, where the real UIKit is a build for iOS away (and the stand-in's
# `Selector` would clash with the Objective-C runtime's).
# usage: Tools/uikit-typecheck/check.sh [MODULES_DIR]   (default: .build/debug/Modules)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
modules=${1:-$root/.build/debug/Modules}
source=$root/Sources/SelectLogUIKit/SelectLogUIKit.swift
swiftc=${SWIFTC:-swiftc}
die() { echo "uikit-typecheck: $*" >&2; exit 1; }
if [ "$(uname -s)" = Darwin ]; then
    echo "uikit-typecheck: skipped on macOS: build the SelectLogUIKit scheme for iOS instead"
    exit 0
fi
[ -f "$modules/SelectLogStore.swiftmodule" ] || die "no SelectLogStore module in $modules (swift build, or pass the build's Modules directory)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The rewrite below removes `@objc` and turns each `#selector` into a string, which the
# compiler no longer checks: selectors.py checks both as Apple's compiler would (each
# selector names an `@objc` method by its labels; their parameters are classes).
python3 "$here/selectors.py" "$source" "$here/UIKit.swift" >&2 || die "the @objc methods and #selectors of $source do not match"

# With library evolution, as Apple's SDK is built: its enums are not frozen.
"$swiftc" -swift-version 6 -enable-library-evolution -emit-module -module-name UIKit "$here/UIKit.swift" \
    -o "$work/UIKit.swiftmodule" 2> "$work/stub.out" || { cat "$work/stub.out" >&2; die "the stand-in does not build"; }
# Line for line the same, so the compiler's line numbers are the source's.
sed -e 's/@objc //' -e 's/#selector(\([^)]*)\))/Selector("\1")/g' "$source" > "$work/SelectLogUIKit.swift"
maps=()
for map in "$root"/Sources/C*/module.modulemap "$root"/Sources/C*/include/module.modulemap; do
    [ -f "$map" ] && maps+=(-Xcc "-fmodule-map-file=$map")
done
# Through SIL, not only -typecheck: Swift 6's region-based isolation errors ("sending …
# risks causing data races") come from the SIL passes, which -typecheck does not run.
if ! "$swiftc" -swift-version 6 -warnings-as-errors -emit-sil -o /dev/null -I "$work" -I "$modules" "${maps[@]}" \
    "$work/SelectLogUIKit.swift" > "$work/out" 2>&1; then
    sed "s|$work/SelectLogUIKit.swift|$source|g" "$work/out" >&2
    die "SelectLogUIKit does not type-check against the UIKit stand-in"
fi

# The guides' UIKit snippets (the blocks under a uikit-typecheck marker), each the body of
# a function, with the module (for its `IndexPath(row)`). A snippet is a fragment: the
# values it makes and leaves for the reader are "never used", which is all the warnings
# allowed here (not "is unused": a `==` meant as `=` says that). Availability is not
# checked: the stand-in's `@available` means nothing on Linux, and only the iOS branch of
# an `#if os(tvOS)` is compiled.
guides=(docs/INTEGRATION.md Sources/SelectLog/SelectLog.docc/Integration.md)
snippets=$(cd "$root" && python3 "$here/snippets.py" "${guides[@]}" "$work/Snippets.swift") || die "cannot read the guides' snippets"
if ! (cd "$root" && "$swiftc" -swift-version 6 -wmo -emit-sil -o /dev/null -module-name Snippets -I "$work" -I "$modules" "${maps[@]}" \
    "$work/SelectLogUIKit.swift" "$work/Snippets.swift") > "$work/out" 2>&1 \
    || grep -E "warning: " "$work/out" | grep -vE "was never used" > /dev/null; then
    sed "s|$work/SelectLogUIKit.swift|$source|g" "$work/out" >&2
    die "the guides' UIKit snippets do not type-check against the UIKit stand-in"
fi
echo "uikit-typecheck: SelectLogUIKit type-checks against the UIKit stand-in (Swift 6, warnings as errors), and so do the guides' UIKit snippets ($snippets)"
