@testable import SelectLogStore
import Testing

@Suite("Names of the files written beside a log")
struct SiblingNameTests {
    @Test("a name that fits gets the suffix as it is, in the log's directory")
    func fits() {
        #expect(FileIO.sibling(of: "/tmp/a/s.slog", suffix: ".cut-40") == "/tmp/a/s.slog.cut-40")
        #expect(FileIO.sibling(of: "s.slog", suffix: ".x") == "s.slog.x")
        let exactly = String(repeating: "a", count: 250)
        #expect(FileIO.sibling(of: "d/" + exactly, suffix: ".cut5") == "d/" + exactly + ".cut5")
    }

    @Test("a name that would pass 255 bytes is shortened before the suffix, between characters")
    func shortened() {
        let long = String(repeating: "é", count: 127) // 254 bytes
        let sibling = FileIO.sibling(of: "/x/" + long, suffix: ".cut-3505")
        #expect(sibling.hasPrefix("/x/"))
        #expect(sibling.hasSuffix(".cut-3505"))
        let name = String(sibling.dropFirst(3))
        #expect(name.utf8.count <= 255)
        // 246 bytes are left before the suffix: 123 whole characters.
        #expect(name == String(repeating: "é", count: 123) + ".cut-3505")
        // A directory with long names of its own is kept whole.
        let dir = "/" + String(repeating: "d", count: 300) + "/"
        #expect(FileIO.sibling(of: dir + long, suffix: ".p") == dir + String(repeating: "é", count: 126) + ".p")
        #expect(FileIO.sibling(of: dir + "a" + long, suffix: ".p") == dir + "a" + String(repeating: "é", count: 126) + ".p")
    }
}
