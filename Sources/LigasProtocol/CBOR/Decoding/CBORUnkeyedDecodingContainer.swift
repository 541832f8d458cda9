import FoundationEssentials

/// Sequential access to the items of an array; `count` was checked against the input.
/// Only the generic `decode` is written; it witnesses the primitive requirements too.
struct CBORUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let cursor: CBORCursor
    let itemCount: Int
    var currentOffset: Int
    var currentIndex = 0

    var codingPath: [any CodingKey] { cursor.state.pointee.path }
    var count: Int? { itemCount }
    var isAtEnd: Bool { currentIndex >= itemCount }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, cursor.reader.isNull(at: currentOffset) else { return false }
        currentOffset += 1
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(expected: "\(T.self)") { [cursor, currentIndex] in
            try cursor.decode(T.self, at: $0, key: CBORKey.index(currentIndex))
        }
    }

    mutating func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type) throws -> KeyedDecodingContainer<Nested> {
        try superDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try superDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(expected: "value") { [cursor] in CBORValueDecoder(cursor: cursor, offset: $0) }
    }

    /// Decodes the current item with `body`, then moves past it.
    private mutating func next<T>(expected: @autoclosure () -> String, _ body: (Int) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw CBORDecodingError.valueNotFound(expected: expected(), path: cursor.path(appending: CBORKey.index(currentIndex)))
        }
        let value = try body(currentOffset)
        currentOffset = cursor.reader.endOfValidatedItem(at: currentOffset)
        currentIndex += 1
        return value
    }
}
