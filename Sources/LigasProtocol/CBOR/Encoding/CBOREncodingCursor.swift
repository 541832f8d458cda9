import FoundationEssentials
import Glibc

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
        defer { state.pointee.path.removeLast(state.pointee.path.count - pathMark) }
        try value.encode(to: CBORValueEncoder(cursor: self, level: level))
        try close(downTo: level)
        // A value that encoded nothing is an empty map.
        if state.pointee.out.count == before { state.pointee.out.append(0xA0) }
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

    /// Opens a container with a one-byte head placeholder. Its head offset identifies it.
    func openContainer(isMap: Bool) -> Int {
        let headOffset = state.pointee.out.count
        state.pointee.open.append(CBOROpenContainer(isMap: isMap, headOffset: headOffset, marksStart: state.pointee.entryMarks.count))
        state.pointee.out.append(0)
        return headOffset
    }

    /// Opens a container as the next entry or item of an open one (`start` writes the key or
    /// counts the item). It stays open until its parent is written to again or closes (one
    /// forward pass); nested-container APIs cannot throw, so failures are reported at the end.
    func openNested(isMap: Bool, start: () throws -> Void) -> Int {
        do {
            try start()
        } catch {
            state.pointee.pendingError = error
        }
        return openContainer(isMap: isMap)
    }

    /// Where the container `headOffset` is in the open stack; nil once it closed.
    func index(of headOffset: Int) -> Int? {
        state.pointee.open.lastIndex { $0.headOffset == headOffset }
    }

    /// A super-encoder would be filled in after later siblings, which a one-pass encoder
    /// cannot do; the wire types never need it. Reported when encoding ends.
    func unsupportedSuperEncoder() -> any Encoder {
        state.pointee.pendingError = EncodingError.invalidValue(
            0, .init(codingPath: state.pointee.path, debugDescription: "superEncoder is not supported by CBOREncoder")
        )
        return CBORValueEncoder(cursor: self, level: state.pointee.open.count)
    }

    /// Makes the container `headOffset` the innermost one, closing nested containers that
    /// were left open, and returns its index. Throws if it was already closed.
    @discardableResult
    func prepareToWrite(_ headOffset: Int) throws -> Int {
        guard let index = index(of: headOffset) else {
            throw EncodingError.invalidValue(
                headOffset, .init(codingPath: state.pointee.path, debugDescription: "container used after it was closed")
            )
        }
        try close(downTo: index + 1)
        return index
    }

    /// Closes the innermost containers down to `level`, patching in their real heads.
    func close(downTo level: Int) throws {
        while state.pointee.open.count > level, let container = state.pointee.open.popLast() {
            var count = container.itemCount
            if container.isMap {
                try sortEntries(from: container.marksStart)
                count = state.pointee.entryMarks.count - container.marksStart
                state.pointee.entryMarks.removeLast(count)
            }
            state.pointee.out.patchCBORHead(at: container.headOffset, container.isMap ? .map : .array, UInt64(count))
        }
    }

    // MARK: Deterministic key order

    /// Puts the entries recorded from `marksStart` in bytewise order of their encoded keys
    /// (RFC 8949 §4.2.1), and refuses a key written twice. An already-sorted map costs one
    /// comparison per entry and no copy; matches, whose fields are declared in reading
    /// order, are reordered on every encode.
    private func sortEntries(from marksStart: Int) throws {
        let marks = state.pointee.entryMarks[marksStart...]
        if zip(marks, marks.dropFirst()).allSatisfy({ compareKeys($0, $1) < 0 }) { return }
        let order = marks.indices.sorted { compareKeys(marks[$0], marks[$1]) < 0 }
        guard zip(order, order.dropFirst()).allSatisfy({ compareKeys(marks[$0], marks[$1]) != 0 }) else {
            throw EncodingError.invalidValue(
                0, .init(codingPath: state.pointee.path, debugDescription: "duplicate map key (not allowed in CBOR maps)")
            )
        }
        // Copy the map's entries to the reused scratch buffer, then write them back in key order.
        let start = marks[marksStart].entryStart
        let output = state.pointee.out.bytes
        state.pointee.scratch.removeAll(keepingCapacity: true)
        state.pointee.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: output[start...]))
        state.pointee.scratch.withUnsafeBufferPointer { entries in
            var write = state.pointee.out.base + start
            for index in order {
                let range = marks[index].entryStart..<(index + 1 < marks.endIndex ? marks[index + 1].entryStart : output.count)
                write.update(from: entries.baseAddress! + (range.lowerBound - start), count: range.count)
                write += range.count
            }
        }
    }

    /// Bytewise order of two entries' encoded keys: negative, zero (equal) or positive.
    private func compareKeys(_ lhs: (entryStart: Int, valueStart: Int), _ rhs: (entryStart: Int, valueStart: Int)) -> Int {
        let lhsCount = lhs.valueStart - lhs.entryStart
        let rhsCount = rhs.valueStart - rhs.entryStart
        let base = state.pointee.out.base
        let result = memcmp(base + lhs.entryStart, base + rhs.entryStart, min(lhsCount, rhsCount))
        return result != 0 ? Int(result) : lhsCount - rhsCount
    }
}
