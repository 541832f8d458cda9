import Foundation

/// Hot wire types also encode and decode themselves straight against the byte
/// buffer, skipping Codable's existential containers, boxes and metadata lookups
/// (which cost several times the actual work). Their `Codable` conformance stays the
/// reference: tests run every vector and random value through both paths and require
/// byte-identical output. Direct writers emit keys already in deterministic order.
protocol CBORDirectCodable: Codable {
    func writeCBOR(to out: inout [UInt8]) throws
    /// Reads the item at `offset` and returns it with the offset just past it, so
    /// callers never walk the item again. The cursor's path already ends with this
    /// value's key.
    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Self, end: Int)
}

extension Array: CBORDirectCodable where Element: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.array, UInt64(count))
        // Indexing borrows each element in place; `for element in self` copied (and
        // retained) every element.
        for index in indices { try self[index].writeCBOR(to: &out) }
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: [Element], end: Int) {
        let reader = cursor.reader
        let head = try reader.head(at: offset)
        guard head.major == .array else { throw cursor.mismatch("array", at: offset, key: nil) }
        let count = try reader.childCount(head)
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var position = head.end
        for index in 0..<count {
            let (element, end) = try cursor.withPath(CBORIndexKey(index)) {
                try Element.readCBOR(at: position, cursor: cursor)
            }
            elements.append(element)
            position = end
        }
        return (elements, position)
    }
}

extension CBORCursor {
    /// Runs `body` with `key` appended to the coding path.
    @inline(__always)
    func withPath<R>(_ key: any CodingKey, _ body: () throws -> R) throws -> R {
        state.pointee.path.append(key)
        defer { state.pointee.path.removeLast() }
        return try body()
    }

    /// Direct read of a nested value under `key`.
    @inline(__always)
    func read<T: CBORDirectCodable>(_ type: T.Type, at offset: Int, key: any CodingKey) throws -> T {
        try withPath(key) { try T.readCBOR(at: offset, cursor: self).value }
    }

    /// Calls `body` with each text key and its value offset; other keys are skipped.
    /// Keys and skipped values are validated (UTF-8 included) with the depth cap
    /// counted from the top level.
    /// Returns the offset just past the map.
    @discardableResult
    func forEachMapEntry(at offset: Int, _ body: (CBORKeyBytes, Int) throws -> Void) throws -> Int {
        try readMapEntries(at: offset, { key, value in
            try body(key, value)
            return nil
        })
    }

    /// Like `forEachMapEntry`, but `body` may read a value itself and return the
    /// offset just past it, so that value is not walked a second time to skip it.
    func readMapEntries(at offset: Int, _ body: (CBORKeyBytes, Int) throws -> Int?) throws -> Int {
        let reader = self.reader
        let head = try reader.head(at: offset)
        guard head.major == .map else { throw mismatch("map", at: offset, key: nil) }
        let childDepth = state.pointee.path.count + 1
        guard childDepth <= reader.maxDepth else {
            throw CBORDecodingError.depthLimitExceeded(limit: reader.maxDepth, offset: offset)
        }
        var position = head.end
        for _ in 0..<(try reader.childCount(head)) {
            let keyHead = try reader.head(at: position)
            guard keyHead.major == .text else {
                let keyEnd = try reader.skipItem(at: position, depth: childDepth)
                position = try reader.skipItem(at: keyEnd, depth: childDepth)
                continue
            }
            // Validated here because an unknown key is never decoded as a String.
            let keyRange = try reader.validTextContent(keyHead)
            let keyBytes = CBORKeyBytes(bytes: UnsafeBufferPointer(rebasing: reader.bytes[keyRange]))
            if let end = try body(keyBytes, keyRange.upperBound) {
                position = end
            } else {
                position = try reader.skipItemInline(at: keyRange.upperBound, depth: childDepth)
            }
        }
        return position
    }

    /// The error for a required key that was not in the map.
    func missing(_ key: any CodingKey) -> CBORDecodingError {
        .keyNotFound(path: path(appending: key))
    }
}

/// The raw UTF-8 bytes of a map key, compared against key names without building Strings.
struct CBORKeyBytes {
    let bytes: UnsafeBufferPointer<UInt8>

    @inline(__always)
    static func ~= (name: StaticString, key: CBORKeyBytes) -> Bool {
        let count = name.utf8CodeUnitCount
        guard key.bytes.count == count else { return false }
        guard count > 0, let base = key.bytes.baseAddress else { return true }
        return memcmp(base, name.utf8Start, count) == 0
    }
}
