import FoundationEssentials

/// Sequential access to the items of an array; `count` was checked against the input.
struct CBORUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let cursor: CBORCursor
    let pathCount: Int
    let itemCount: Int
    private(set) var currentIndex = 0
    private var currentOffset: Int

    init(cursor: CBORCursor, pathCount: Int, count: Int, currentOffset: Int) {
        self.cursor = cursor
        self.pathCount = pathCount
        self.itemCount = count
        self.currentOffset = currentOffset
    }

    var codingPath: [any CodingKey] { cursor.codingPath(prefix: pathCount) }
    var count: Int? { itemCount }
    var isAtEnd: Bool { currentIndex >= itemCount }

    private var currentKey: CBORIndexKey { CBORIndexKey(currentIndex) }

    /// Decodes the current item with `body`, then moves past it.
    private mutating func next<T>(_ expected: @autoclosure () -> String, _ body: (Int, CBORIndexKey, CBORCursor) throws -> T) throws -> T {
        guard !isAtEnd else {
            throw CBORDecodingError.valueNotFound(expected: expected(), path: cursor.path(appending: currentKey))
        }
        let value = try body(currentOffset, currentKey, cursor)
        currentOffset = cursor.reader.endOfValidatedItem(at: currentOffset)
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, cursor.decodeNil(at: currentOffset) else { return false }
        currentOffset += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next("bool") { try $2.decodeBool(at: $0, key: $1) } }
    mutating func decode(_ type: String.Type) throws -> String { try next("text") { try $2.decodeString(at: $0, key: $1) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next("float") { try $2.decodeDouble(at: $0, key: $1) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next("float") { Float(try $2.decodeDouble(at: $0, key: $1)) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next("\(T.self)") { try $2.decode(T.self, at: $0, key: $1) }
    }

    private mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try next("integer") { try $2.decodeInteger(I.self, at: $0, key: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let pathCount = self.pathCount
        return try next("map") { offset, _, cursor in
            try CBORValueDecoder(cursor: cursor, offset: offset, pathCount: pathCount).container(keyedBy: type)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let pathCount = self.pathCount
        return try next("array") { offset, _, cursor in
            try CBORValueDecoder(cursor: cursor, offset: offset, pathCount: pathCount).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let pathCount = self.pathCount
        return try next("value") { offset, _, cursor in CBORValueDecoder(cursor: cursor, offset: offset, pathCount: pathCount) }
    }
}
