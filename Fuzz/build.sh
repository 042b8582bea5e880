#!/bin/sh
# Builds the libFuzzer harnesses with the Swift toolchain: the package's modules
# compiled with the same sanitizer flags into static libraries, then each harness
# linked against them. Output in $FUZZ_BUILD (default .build-fuzz).
set -eu
cd "$(dirname "$0")/.."
B=${FUZZ_BUILD:-.build-fuzz}
SWIFTC=${SWIFTC:-swiftc}
mkdir -p "$B"
OPT=${FUZZ_OPT:--O}
# Whole-module, on every core: one type-check of the module instead of one per file
# (the smoke's unoptimised build took 50 s wall on two cores file by file, 24 s so).
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
FLAGS="-sanitize=fuzzer,address $OPT -wmo -num-threads $JOBS -g -swift-version 6 -package-name selectlog -enable-testing"
newer() { [ ! -f "$1" ] || [ -n "$(find "$2" -name '*.swift' -newer "$1" | head -1)" ]; }

# A toolchain without libFuzzer (Xcode's on macOS; swift.org's toolchains have it) cannot
# build the harnesses: found out once, on a one-line harness, before building anything.
# With FUZZ_OPTIONAL set (make test's smoke) that is a note and no harness; else an error.
if [ ! -x "$B/fuzz-script" ] && [ ! -x "$B/fuzz-log" ]; then
    printf '%s\n' '@_cdecl("LLVMFuzzerTestOneInput") public func fuzz(_ d: UnsafePointer<UInt8>, _ n: Int) -> CInt { 0 }' > "$B/probe.swift"
    if ! $SWIFTC -sanitize=fuzzer -parse-as-library "$B/probe.swift" -o "$B/probe" > "$B/probe.log" 2>&1; then
        if [ -n "${FUZZ_OPTIONAL:-}" ]; then
            echo "fuzz: $SWIFTC cannot build libFuzzer harnesses (-sanitize=fuzzer): the fuzz smoke is skipped (a swift.org toolchain has libFuzzer)"
            exit 0
        fi
        cat "$B/probe.log" >&2
        echo "fuzz: $SWIFTC cannot build libFuzzer harnesses (-sanitize=fuzzer); a swift.org toolchain can" >&2
        exit 1
    fi
    rm -f "$B/probe.swift" "$B/probe" "$B/probe.log"
fi

if newer "$B/libSelectLog.a" Sources/SelectLog; then
    echo "fuzz: building SelectLog"
    rm -f "$B/libSelectLog.a" "$B/libSelectLogStore.a"
    $SWIFTC $FLAGS -parse-as-library -module-name SelectLog -emit-module -emit-module-path "$B/SelectLog.swiftmodule" \
        -emit-library -static -o "$B/libSelectLog.a" $(find Sources/SelectLog -name '*.swift' | sort)
    rm -f "$B/libSelectLogStore.a"
fi
if newer "$B/libSelectLogStore.a" Sources/SelectLogStore; then
    echo "fuzz: building SelectLogStore"
    rm -f "$B/libSelectLogStore.a"
    $SWIFTC $FLAGS -parse-as-library -module-name SelectLogStore -I "$B" -I Sources/CZstd -I Sources/CPrefetch/include -I Sources/CBias/include -emit-module \
        -emit-module-path "$B/SelectLogStore.swiftmodule" -emit-library -static -o "$B/libSelectLogStore.a" \
        $(find Sources/SelectLogStore -name '*.swift' | sort)
fi
# The snapshot harness needs SelectLog alone: linked without the store and zstd.
for h in script log snapshot; do
    LIB="$B/libSelectLogStore.a" LIBS="-lSelectLogStore -lSelectLog -lzstd"
    case $h in
        script) SRC="Fuzz/ScriptHarness.swift Fuzz/Finding.swift" ;;
        log) SRC="Fuzz/LogHarness.swift Fuzz/LogForge.swift Fuzz/Finding.swift" ;;
        snapshot) SRC="Fuzz/SnapshotHarness.swift Fuzz/Finding.swift" LIB="$B/libSelectLog.a" LIBS="-lSelectLog" ;;
    esac
    OUT="$B/fuzz-$h"
    if [ ! -f "$OUT" ] || [ "$LIB" -nt "$OUT" ] || [ -n "$(find $SRC -newer "$OUT")" ]; then
        echo "fuzz: linking $OUT"
        rm -f "$OUT"
        # ld.gold warns about ASan's local symbols on every link: noise, left out. The
        # module that -g emits for the debugger goes beside the harness, not into the
        # directory the build runs in (the repository's root, as Fuzzlog-1.swiftmodule).
        $SWIFTC $FLAGS -parse-as-library -module-name "Fuzz$h" -I "$B" -I Sources/CZstd -I Sources/CPrefetch/include -I Sources/CBias/include -L "$B" \
            -emit-executable -emit-module -emit-module-path "$B/Fuzz$h.swiftmodule" $SRC $LIBS -o "$OUT" 2>&1 | grep -v "Cannot export local symbol '__asan" || true
        [ -x "$OUT" ] || { echo "fuzz: could not link $OUT" >&2; exit 1; }
    fi
done
