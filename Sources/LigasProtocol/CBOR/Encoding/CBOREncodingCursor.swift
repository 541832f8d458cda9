import Foundation

/// Writes values into the shared output and opens/closes containers.
struct CBOREncodingCursor {
    let state: UnsafeMutablePointer<CBOREncodingState>

    // MARK: Any Encodable

    /// Every container's `encode` comes here, so a primitive is written the same way
    /// however it is given.
    func encode<T: Encodable>(_ value: T, key: @autoclosure () -> (any CodingKey)?) throws {
        if try encodeSpecialForm(value) { return }
        let level = state.pointee.open.count
        let before = state.pointee.out.count
        let pathMark = state.pointee.path.count
        if let key = key() { state.pointee.path.append(key) }
        defer { state.pointee.path.truncate(to: pathMark) }
        try value.encode(to: CBORValueEncoder(cursor: self, level: level, pathCount: state.pointee.path.count))
        if state.pointee.open.count > level {
            try close(downTo: level)
        } else if state.pointee.out.count == before {
            state.pointee.out.append(0xA0) // a value that encoded nothing is an empty map
        }
    }

    /// Types with a fixed wire form, plus primitives reached through generic code
    /// (e.g. the elements of `[String]`). Matched by metatype and reinterpreted, for the
    /// reason `CBORCursor.decode` gives. A URL is its absolute string as text (tag 32 is
    /// accepted on input, never written); a Date is `CBORDateForm`.
    private func encodeSpecialForm<T>(_ value: T) throws -> Bool {
        if T.self == String.self { state.pointee.out.appendCBORText(unsafeBitCast(value, to: String.self)); return true }
        if T.self == URL.self { state.pointee.out.appendCBORText(unsafeBitCast(value, to: URL.self).absoluteString); return true }
        if T.self == Int.self { state.pointee.out.appendCBORSigned(Int64(unsafeBitCast(value, to: Int.self))); return true }
        if T.self == Date.self { try CBORDateForm.append(unsafeBitCast(value, to: Date.self), to: &state.pointee.out); return true }
        if T.self == Bool.self {
            state.pointee.out.append(unsafeBitCast(value, to: Bool.self) ? CBORConstant.trueByte : CBORConstant.falseByte)
            return true
        }
        if T.self == Double.self { state.pointee.out.appendCBORDouble(unsafeBitCast(value, to: Double.self)); return true }
        if T.self == Data.self { unsafeBitCast(value, to: Data.self).withUnsafeBytes { state.pointee.out.appendCBORBytes($0) }; return true }
        if T.self == UInt64.self { state.pointee.out.appendCBORHead(.unsigned, unsafeBitCast(value, to: UInt64.self)); return true }
        if T.self == UInt32.self { state.pointee.out.appendCBORHead(.unsigned, UInt64(unsafeBitCast(value, to: UInt32.self))); return true }
        if T.self == Int64.self { state.pointee.out.appendCBORSigned(unsafeBitCast(value, to: Int64.self)); return true }
        if T.self == UInt8.self { state.pointee.out.appendCBORHead(.unsigned, UInt64(unsafeBitCast(value, to: UInt8.self))); return true }
        if T.self == UInt16.self { state.pointee.out.appendCBORHead(.unsigned, UInt64(unsafeBitCast(value, to: UInt16.self))); return true }
        if T.self == Int32.self { state.pointee.out.appendCBORSigned(Int64(unsafeBitCast(value, to: Int32.self))); return true }
        if T.self == Int16.self { state.pointee.out.appendCBORSigned(Int64(unsafeBitCast(value, to: Int16.self))); return true }
        if T.self == Int8.self { state.pointee.out.appendCBORSigned(Int64(unsafeBitCast(value, to: Int8.self))); return true }
        if T.self == UInt.self { state.pointee.out.appendCBORHead(.unsigned, UInt64(unsafeBitCast(value, to: UInt.self))); return true }
        if T.self == Float.self { state.pointee.out.appendCBORDouble(Double(unsafeBitCast(value, to: Float.self))); return true }
        return false
    }

    // MARK: Containers

    /// Opens a container with a one-byte head placeholder.
    func openContainer(isMap: Bool, pathCount: Int) -> CBORContainerReference {
        let container = CBOROpenContainer(
            isMap: isMap,
            headOffset: state.pointee.out.count,
            marksStart: state.pointee.entryMarks.count,
            pathCount: pathCount
        )
        state.pointee.out.append(0)
        state.pointee.open.append(container)
        return CBORContainerReference(index: state.pointee.open.count - 1, headOffset: container.headOffset)
    }

    /// Opens a container as the next entry or item of an open one, which `start` begins
    /// (writing the key, or counting the item). It stays open until its parent is written
    /// to again or closes: the encoder writes in one forward pass. Nested-container APIs
    /// cannot throw, so a failure is reported when encoding ends.
    func openNested(isMap: Bool, start: () throws -> Void) -> CBORContainerReference {
        do {
            try start()
        } catch {
            state.pointee.pendingError = error
        }
        return openContainer(isMap: isMap, pathCount: state.pointee.path.count)
    }

    /// The coding path of an open container (or the current one, if it was closed).
    func codingPath(of reference: CBORContainerReference) -> [any CodingKey] {
        let state = state.pointee
        let pathCount = reference.index < state.open.count ? state.open[reference.index].pathCount : state.path.count
        return Array(state.path.prefix(pathCount))
    }

    /// A super-encoder would be filled in after later siblings, which a one-pass encoder
    /// cannot do; the wire types never need it. Reported when encoding ends.
    func unsupportedSuperEncoder(codingPath: [any CodingKey]) -> any Encoder {
        state.pointee.pendingError = EncodingError.invalidValue(
            0, .init(codingPath: codingPath, debugDescription: "superEncoder is not supported by CBOREncoder")
        )
        return CBORValueEncoder(cursor: self, level: state.pointee.open.count, pathCount: state.pointee.path.count)
    }

    /// Makes the container `reference` (identified by its head offset) the innermost one,
    /// closing nested containers that were left open. Throws if it was already closed.
    func prepareToWrite(_ reference: CBORContainerReference) throws {
        let index = reference.index
        guard index < state.pointee.open.count, state.pointee.open[index].headOffset == reference.headOffset else {
            throw EncodingError.invalidValue(
                reference.headOffset, .init(codingPath: state.pointee.path, debugDescription: "container used after it was closed")
            )
        }
        if state.pointee.open.count > index + 1 {
            try close(downTo: index + 1)
        }
    }

    func close(downTo level: Int) throws {
        while state.pointee.open.count > level {
            try closeInnermost()
        }
    }

    private func closeInnermost() throws {
        guard let container = state.pointee.open.popLast() else { return }
        if container.isMap {
            let count = state.pointee.entryMarks.count - container.marksStart
            try sortEntries(from: container.marksStart)
            state.pointee.entryMarks.truncate(to: container.marksStart)
            state.pointee.out.patchCBORHead(at: container.headOffset, .map, UInt64(count))
        } else {
            state.pointee.out.patchCBORHead(at: container.headOffset, .array, UInt64(container.itemCount))
        }
    }

    // MARK: Deterministic key order

    /// Ensures the entries recorded from `marksStart` are in bytewise order of their
    /// encoded keys (RFC 8949 §4.2.1). Already-sorted maps (the wire types declare
    /// their keys in that order) cost one comparison per entry.
    private func sortEntries(from marksStart: Int) throws {
        let marks = state.pointee.entryMarks[marksStart...]
        guard marks.count > 1 else { return }
        var sorted = true
        for index in marks.indices.dropLast() {
            let order = compareKeys(marks[index], marks[index + 1])
            if order == 0 { throw duplicateKey() }
            if order > 0 { sorted = false }
        }
        if sorted { return }
        reorder(Array(marks))
    }

    private func reorder(_ marks: [CBOREntryMark]) {
        let regionStart = marks[0].entryStart
        let regionEnd = state.pointee.out.count
        let base = state.pointee.out.base
        func entryRange(_ index: Int) -> Range<Int> {
            let end = index + 1 < marks.count ? marks[index + 1].entryStart : regionEnd
            return marks[index].entryStart..<end
        }
        let order = marks.indices.sorted { compareKeys(marks[$0], marks[$1]) < 0 }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: regionEnd - regionStart)
        defer { scratch.deallocate() }
        scratch.initialize(from: base + regionStart, count: regionEnd - regionStart)
        var write = regionStart
        for index in order {
            let range = entryRange(index)
            (base + write).update(from: scratch + (range.lowerBound - regionStart), count: range.count)
            write += range.count
        }
    }

    private func compareKeys(_ lhs: CBOREntryMark, _ rhs: CBOREntryMark) -> Int {
        let lhsCount = lhs.valueStart - lhs.entryStart
        let rhsCount = rhs.valueStart - rhs.entryStart
        let common = min(lhsCount, rhsCount)
        let base = state.pointee.out.base
        let result = common > 0 ? memcmp(base + lhs.entryStart, base + rhs.entryStart, common) : 0
        if result != 0 { return Int(result) }
        return lhsCount - rhsCount
    }

    private func duplicateKey() -> EncodingError {
        EncodingError.invalidValue(
            0, .init(codingPath: state.pointee.path, debugDescription: "duplicate map key (not allowed in CBOR maps)")
        )
    }
}
