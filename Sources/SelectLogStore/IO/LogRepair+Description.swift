extension LogRepair.Result: CustomStringConvertible {
    /// What the cut kept and where the rest went, as `selectlog verify --repair` says it:
    /// `kept 2437 bytes; saved 1351 cut bytes in LOG.cut-2437` (or, when another repair
    /// had already cut the log there, that nothing was left to cut).
    public var description: String { "kept \(ReportText.counted(keptBytes, "byte", "bytes")); \(saved)" }

    /// Where the cut bytes went, or that there were none left to cut.
    package var saved: String {
        savedBytes > 0 ? "saved \(ReportText.counted(savedBytes, "cut byte", "cut bytes")) in \(savedPath)" : "nothing left to cut (already cut there)"
    }
}

extension LogRepair.Outcome: CustomStringConvertible {
    /// The check's verdict (`VerifyReport`'s description), then what the repair did, in the
    /// words of `selectlog verify --repair`: nothing to cut, what was kept (bytes and events)
    /// and where the cut bytes were saved, or why nothing could be kept.
    ///
    /// ```
    /// damaged at byte offset 2437: record payload checksum mismatch; 1253 intact events
    /// repaired: kept 2437 bytes (1253 events); saved 1351 cut bytes in /logs/m.slog.cut-2437
    /// ```
    public var description: String { "\(report)\n\(restored.map { $0 + "\n" } ?? "")\(action)" }

    /// That the repair wrote the magic again, and what was there, as `selectlog verify
    /// --repair` says it; nil when it did not. `action` says what it did after.
    package var restored: String? {
        restoredMagic.map { before in
            "repaired: wrote its magic \"SELECTLG\" again over bytes 0-7, which read \(ReportText.bytes(before))"
        }
    }

    /// What the repair did, as `selectlog verify --repair` says it after the log's name.
    package var action: String {
        if let cut {
            return "repaired: kept \(ReportText.counted(cut.keptBytes, "byte", "bytes")) (\(ReportText.counted(report.intactEvents, "event", "events"))); \(cut.saved)"
        }
        return Self.cannot(report.problem)
    }

    /// Why nothing was cut, for `problem` (nil: nothing to cut).
    private static func cannot(_ problem: LogProblem?) -> String {
        guard let problem else { return "nothing to cut" }
        return problem.isNewer ? "not repaired: a newer selectlog wrote what this build cannot read, so it is no damage to cut"
            : problem.isNotALog ? "cannot repair: it is not a selectlog log"
            : problem.isTornTail ? "cannot repair: it is cut inside its file header, before any event, so there is nothing to keep"
            : "cannot repair: the file header itself is damaged"
    }
}
