extension LogReader {
    /// A sequential walk's pages, released every 64 records: ranges that follow one
    /// another, so no page is left behind (records are mostly smaller than a page).
    struct Walk {
        private var from: Int
        private var last: Int
        private var count = 0

        init(from: Int) {
            self.from = from
            last = from
        }

        mutating func passed(_ offset: Int, _ file: MappedFile) {
            count += 1
            last = Swift.max(last, offset)
            guard count % 64 == 0, offset > from else { return }
            file.release(from..<offset)
            from = offset
        }

        /// Releases what the walk passed since its last release; `all`: the block holding
        /// the last record too.
        func finish(_ file: MappedFile, releasingAll all: Bool) {
            let end = all ? last &+ MappedFile.releaseBlock : last
            if end > from { file.release(from..<end) }
        }
    }
}
