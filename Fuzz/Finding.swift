// Shared by every harness (Fuzz/build.sh compiles it into each).

/// Stops the fuzzer with a finding: libFuzzer saves the input that caused it.
func finding(_ message: String) -> Never {
    print("FINDING: \(message)")
    fatalError(message)
}
