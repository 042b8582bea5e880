import Foundation
import SelectLog
import Testing

/// `selectlog testgen`: the generated file is the checked-in one, and generated files
/// compile against the built SelectLog module and pass, or fail with EXPR negated.
///
/// Running `swift test` inside a test is too slow (a second package build), so the
/// generated file is compiled with `swiftc` against the module and object files this very
/// build produced (`.build/debug/Modules`, `SelectLog.build/*.o`), with a two-line `main`
/// that calls Swift Testing's entry point, and the resulting binary is run. `make test`
/// also compiles and runs the checked-in generated file as the GeneratedTests target.
@Suite("selectlog testgen")
struct TestgenTests {
    static let fixture = CLI.root.appendingPathComponent("Tests/GeneratedTests/DebuggingSessionTests.swift")
    static let expect = "selected contains [0, 6] and optionOpen == [0, 3]"

    @Test("shrink then testgen of the debugging example regenerates Tests/GeneratedTests byte for byte")
    func regenerates() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let example = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
        #expect(try CLI.run(["shrink", example, "--expect", TestgenTests.expect, "-o", "min.jsonl"], in: dir).status == 0)
        let r = try CLI.run(["testgen", "min.jsonl", "--expect", TestgenTests.expect, "-o", "DebuggingSessionTests.swift"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let generated = try String(contentsOf: dir.appendingPathComponent("DebuggingSessionTests.swift"), encoding: .utf8)
        #expect(generated == (try String(contentsOf: TestgenTests.fixture, encoding: .utf8)),
                "regenerate with: selectlog shrink Examples/debugging-session.jsonl --expect '\(TestgenTests.expect)' -o min.jsonl && selectlog testgen min.jsonl --expect '...' -o Tests/GeneratedTests/DebuggingSessionTests.swift")
    }

    @Test("testgen refuses an expectation that does not hold unless --allow-failing; bad names become identifiers")
    func refuses() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let example = CLI.root.appendingPathComponent("Examples/debugging-session.jsonl").path
        let no = try CLI.run(["testgen", example, "--expect", "editing", "-o", "x.swift"], in: dir)
        #expect(no.status == 1)
        #expect(no.stderr.contains("does not hold after its 12 events") && no.stderr.contains("editing = false"))
        let yes = try CLI.run(["testgen", example, "--expect", "editing", "-o", "x.swift", "--allow-failing", "--name", "3 bugs-in table"], in: dir)
        #expect(yes.status == 0)
        let text = try String(contentsOf: dir.appendingPathComponent("x.swift"), encoding: .utf8)
        #expect(text.contains("struct Test3BugsInTableTests {"))
        // EXPR does not hold: the value it reads is listed, not checked, or the test could never pass.
        #expect(!text.contains("#expect(table.editing"))
        #expect(text.contains("//   editing = false"))
    }

    /// Runs `executable` with `arguments` in `dir`.
    static func run(_ executable: String, _ arguments: [String], in dir: URL) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = dir
        return try CLI.collect(process)
    }

    #if os(Linux)
    /// Compiles `file` with a Swift Testing `main` against the built SelectLog and runs it.
    func compileAndRun(_ file: URL, in dir: URL) throws -> CLI.Result {
        let debug = CLI.executable.deletingLastPathComponent()
        // The objects of the current sources, as the build's output file map names them
        // (the directory may still hold objects of deleted files).
        let map = try Data(contentsOf: debug.appendingPathComponent("SelectLog.build/output-file-map.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: map) as? [String: [String: String]])
        let objects = entries.compactMap { source, outputs in
            FileManager.default.fileExists(atPath: source) ? outputs["object"] : nil
        }.sorted()
        let main = try CLI.write("import Testing\n@main struct Runner { static func main() async { await Testing.__swiftPMEntryPoint() as Never } }\n",
                                 to: "main.swift", in: dir)
        let binary = dir.appendingPathComponent("runner").path
        let compile = try TestgenTests.run("/usr/bin/env", ["swiftc", "-parse-as-library", "-swift-version", "6", file.path, main,
                                                           "-I", debug.appendingPathComponent("Modules").path] + objects + ["-lm", "-o", binary], in: dir)
        #expect(compile.status == 0, "\(compile.stderr)")
        return try TestgenTests.run(binary, [], in: dir)
    }

    @Test("a test generated from a shrunk planted bug compiles and passes; with EXPR negated it fails")
    func compiles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (events, _) = try ShrinkTests.plantedSession(seed: 21, count: 12_000, depth: 9_000)
        let shrunk = try Shrinker(expectation: try StateExpectation(ShrinkTests.bug)).shrink(events).events
        _ = try CLI.write(shrunk.map { EventEncoder.line($0) }.joined(separator: "\n") + "\n", to: "min.jsonl", in: dir)
        let negated = try StateExpectation(ShrinkTests.bug).negated.text
        for (expect, passes) in [(ShrinkTests.bug, true), (negated, false)] {
            let sub = dir.appendingPathComponent(passes ? "pass" : "fail")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let gen = try CLI.run(["testgen", "../min.jsonl", "--expect", expect, "-o", "PlantedBugTests.swift", "--allow-failing"], in: sub)
            #expect(gen.status == 0, "\(gen.stderr)")
            let r = try compileAndRun(sub.appendingPathComponent("PlantedBugTests.swift"), in: sub)
            #expect((r.status == 0) == passes, "\(expect): \(r.stdout) \(r.stderr)")
            #expect((r.stdout + r.stderr).contains(passes ? "passed" : "failed"), "\(r.stdout) \(r.stderr)")
        }
    }

    @Test("a test generated on a selection of 99,999,999 rows checks its count and ranges, compiles and passes")
    func hugeSelection() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CLI.write(HostileInputTests.hugeTable + "\n", to: "huge.jsonl", in: dir)
        let expect = "count(selected) > 1000 and selected != [[0, 1]]"
        let gen = try CLI.run(["testgen", "huge.jsonl", "--expect", expect, "-o", "HugeTests.swift"], in: dir)
        #expect(gen.status == 0, "\(gen.stderr)")
        let file = dir.appendingPathComponent("HugeTests.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.utf8.count < 4_000, "listed \(text.utf8.count) bytes")
        // The taps toggle rows (0, 2) and (0, 4) of a table all selected.
        #expect(text.contains("#expect(table.selection.count == 99999998)"), "\(text)")
        #expect(text.contains("== [[0, 0, 2], [0, 3, 4], [0, 5, 50000000], [1, 0, 50000000]])"), "\(text)")
        let r = try compileAndRun(file, in: dir)
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
    }
    #endif
}
