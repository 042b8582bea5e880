// The integration guide (docs/INTEGRATION.md) as a program: what an app's table view
// controller does, with UIKit replaced by a few values so it runs anywhere.
// `make test` builds and runs it; it exits 1 if the mirrored table disagrees with the engine.
import Foundation
import SelectLog
import SelectLogStore

/// What UIKit would show: the table view's selection and editing mode, mirrored from
/// `TableChanges`.
struct MirroredTableView {
    var selected = Set<RowPath>()
    var editing = false
    var contentOffsetY = -91.0          // UIKit's resting offset under a large navigation bar
    let insetTop = 91.0

    mutating func mirror(_ changes: TableChanges) {
        // First, as `setEditing(_:animated:)`: a two-finger multi-select pan turns editing on by itself.
        if let on = changes.editing { editing = on }
        if changes.reloaded {
            selected = []                    // reloadData clears the table view's selection
        } else if !changes.rowOperations.isEmpty {
            // What performBatchUpdates does to the table view's selection: selected rows
            // move with the operations, deleted ones leave it. `selected` and `deselected`
            // below are in the index paths after the event.
            selected = Set(RowSet(selected).applying(changes.rowOperations).paths)
        }
        for row in changes.deselected { selected.remove(row) }
        for row in changes.selected { selected.insert(row) }
        if let offset = changes.contentOffset?.to { contentOffsetY = offset.doubleValue - insetTop }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbeddingExample: \(message)\n".utf8))
    exit(1)
}

// 1. Where the log lives: the app's Application Support (here, a temporary directory).
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("selectlog-example-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let path = directory.appendingPathComponent("session.slog").path

// 2. One recorder per session; on relaunch, never replace the log the user may have reported.
func openRecorder(at path: String) throws(LogError) -> Recorder {
    do {
        return try Recorder(creating: path)
    } catch {
        guard error.code == .alreadyExists else { throw error }
        return try Recorder(appendingTo: path)
    }
}
let recorder = try openRecorder(at: path)

var tableView = MirroredTableView()
@MainActor func send(_ event: Event) throws {
    tableView.mirror(try recorder.append(event))     // stamped by the recorder's monotonic clock
}

// 3. Set-up: configuration, the viewport between the insets, the rows from the data source.
var config = ConfigurationPatch()
config.allowsMultipleSelection = true
var strip = StripPatch()
strip.enabled = true
config.scrollAndSelect = strip
try send(.configure(config))
let bounds = (width: 390.0, height: 844.0), insets = (top: 91.0, bottom: 34.0)
try send(.viewport(ViewportSize(width: bounds.width, height: bounds.height - insets.top - insets.bottom)))
var items: [[String]] = [(0..<60).map { "item-\($0)" }]
try send(.reload(sections: [SectionSpec(rows: items[0].count, rowHeight: Points(rounding: 44.0))]))

// 4. A tap: the recognizer's location in the table view (content coordinates), minus
// the content offset and the top inset, rounded onto the grid. At rest under the bar the
// offset is -91: a touch 66.5 pt below the bar is at y = 66.5 in the table view.
let touch = (x: 200.0, y: tableView.contentOffsetY + insets.top + 66.5)
try send(.tap(ViewportPoint(x: touch.x, y: touch.y - tableView.contentOffsetY - insets.top)))
if tableView.selected != [RowPath(0, 1)] { fail("the tap selected \(tableView.selected), not [0, 1]") }

// 5. A strip pan down the leading edge, with display-link ticks while the finger is held.
try send(.panBegan(at: ViewportPoint(x: 20.0, y: 100.0)))
for y in stride(from: 120.0, through: 700.0, by: 40.0) { try send(.panMoved(ViewportPoint(x: 20.0, y: y))) }
for _ in 0..<5 {
    Thread.sleep(forTimeInterval: 0.016)
    try send(.tick)
}
try send(.panEnded(at: ViewportPoint(x: 20.0, y: 700.0)))

// 6. A diffable data source snapshot: identifiers in, a batch update out; selection follows identities.
let selectedIDs = Set(tableView.selected.map { items[$0.section][$0.row] })
var newItems = items
newItems[0].removeAll { $0.hasSuffix("3") }
newItems[0].insert("fresh", at: 0)
newItems[0].swapAt(1, 5)
let update = try BatchUpdate(from: items, to: newItems)
try send(.batch(update))
items = newItems
// The table view's selection, moved by the update as performBatchUpdates moves it, is the engine's.
if tableView.selected != Set(recorder.state.selection.paths) {
    fail("the mirrored selection \(tableView.selected.sorted()) is not the engine's \(recorder.state.selection.paths)")
}
if tableView.editing != recorder.state.editing { fail("the mirrored editing mode is not the engine's") }

let expected = Set(selectedIDs.filter { id in newItems[0].contains(id) })
let actual = Set(recorder.state.selection.paths.map { items[$0.section][$0.row] })
if actual != expected { fail("selection did not follow identities: \(actual.sorted()) != \(expected.sorted())") }

// 7. Flush at a bug report, close at the end of the session, and read the log back.
try recorder.flush()
try recorder.close()
let log = try LogReader(path: path)
let replayed = try log.state(at: log.eventCount)
guard replayed == recorder.state else { fail("the log does not replay to the recorder's state") }
// Every field of the state JSON, read as the DocC article spells it (StateFields.swift):
// compiled against the public API alone, which is the check; nothing to compare here.
_ = stateFieldSpellings(replayed)

// 8. What to print. The recorder stamps each event from the clock (step 2), and the
// autoscroll of step 5 moves the table by the time between the ticks, so the final
// offset, the rows the strip reached and the state's hash (`hashHex`) differ from run to
// run: they are not printed. The events sent do not differ: a digest of the logged events
// with their times left out (64-bit FNV-1a over their script lines) is the same on every
// run and every machine, and shows the log holds exactly what was sent.
var digest: UInt64 = 0xcbf2_9ce4_8422_2325
for timed in try log.events() {
    for byte in EventEncoder.line(TimedEvent(timed.event)).utf8 + [0x0A] {
        digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
let digestHex = String(digest, radix: 16)
print("EmbeddingExample: \(log.eventCount) events logged and replayed to the recorder's state; "
      + "events digest \(String(repeating: "0", count: 16 - digestHex.count) + digestHex) (times left out); zstd \(Zstd.isAvailable ? "on" : "off")")
