/// A container whose head has a one-byte placeholder at `headOffset`; the real count
/// is patched in when it closes (widening the head if the count is 24 or more).
struct CBOROpenContainer {
    let isMap: Bool
    let headOffset: Int
    /// Where this map's entries start in `entryMarks`.
    let marksStart: Int
    let pathCount: Int
    var itemCount = 0
}

/// Where one map entry starts and where its value starts (so the key is the bytes between).
struct CBOREntryMark {
    let entryStart: Int
    let valueStart: Int
}

/// Mutable state of one `encode` call, reached through a pointer by the encoder and
/// containers (see `CBORDecodingState` for why).
struct CBOREncodingState {
    var out: CBOROutput
    var open: [CBOROpenContainer] = []
    var entryMarks: [CBOREntryMark] = []
    var path: [any CodingKey] = []
    /// Misuse reported by non-throwing Encoder APIs, thrown when encoding ends.
    var pendingError: (any Error)?

    init(out: CBOROutput) {
        self.out = out
        open.reserveCapacity(8)
        entryMarks.reserveCapacity(32)
    }
}
