import Foundation
import Testing

@Suite("The embedding example")
struct EmbeddingExampleTests {
    /// The `EmbeddingExample` executable beside `selectlog`.
    static let executable = CLI.executable.deletingLastPathComponent().appendingPathComponent("EmbeddingExample")

    @Test("prints the same digest on every run: its events without their clock-stamped times",
          .enabled(if: FileManager.default.isExecutableFile(atPath: executable.path), "EmbeddingExample is built by swift build --build-tests"))
    func stableOutput() throws {
        let process = Process()
        process.executableURL = Self.executable
        let first = try CLI.collect(process)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("EmbeddingExample: 27 events logged and replayed to the recorder's state; events digest 6cbe693039014c03 (times left out); zstd "),
                "\(first.stdout)")
        let again = Process()
        again.executableURL = Self.executable
        #expect(try CLI.collect(again).stdout == first.stdout)
    }
}
