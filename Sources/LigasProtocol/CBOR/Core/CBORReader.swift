/// A decoded CBOR head: major type, additional info, argument and where the item's
/// content starts.
struct CBORHead {
    let major: CBORMajorType
    let additionalInfo: UInt8
    let argument: UInt64
    /// Offset just past the head (the content of strings, the first child of containers).
    let end: Int
}

/// Bounds-checked primitive reads over untrusted input. Every function validates
/// offsets and lengths against `bytes.count` before touching memory, and rejects
/// indefinite lengths and reserved additional-info values.
struct CBORReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int

    @inline(__always)
    func head(at offset: Int) throws(CBORDecodingError) -> CBORHead {
        guard offset >= 0, offset < bytes.count else { throw .truncated(offset: offset) }
        let initial = bytes[offset]
        // A payload-free enum's cases are numbered in declaration order, and the eight
        // cases are declared as 0...7: every 3-bit value is a valid case. (The failable
        // init(rawValue:) was not inlined and showed up in profiles.)
        let major = unsafeBitCast(initial >> 5, to: CBORMajorType.self)
        let info = initial & 0x1F
        let available = bytes.count - offset - 1
        let argumentLength: Int
        switch info {
        case 0..<24:
            return CBORHead(major: major, additionalInfo: info, argument: UInt64(info), end: offset + 1)
        case 24...27: argumentLength = 1 << Int(info - 24)
        case 31:
            throw .malformed(reason: "indefinite length is not allowed", offset: offset)
        default:
            throw .malformed(reason: "reserved additional information \(info)", offset: offset)
        }
        guard argumentLength <= available else { throw .truncated(offset: offset) }
        var argument: UInt64 = 0
        for index in 1...argumentLength {
            argument = argument << 8 | UInt64(bytes[offset + index])
        }
        if major == .simple, info == 24, argument < 32 {
            throw .malformed(reason: "two-byte simple value below 32", offset: offset)
        }
        return CBORHead(major: major, additionalInfo: info, argument: argument, end: offset + 1 + argumentLength)
    }

    /// The content range of a byte or text string whose head is `head`.
    @inline(__always)
    func stringContent(_ head: CBORHead) throws(CBORDecodingError) -> Range<Int> {
        guard head.argument <= UInt64(bytes.count - head.end) else {
            throw .lengthExceedsInput(offset: head.end)
        }
        return head.end..<(head.end + Int(head.argument))
    }

    /// Number of child items of an array or map head, checked against the input so an
    /// announced length can never drive a large loop or allocation.
    @inline(__always)
    func childCount(_ head: CBORHead) throws(CBORDecodingError) -> Int {
        let itemsPerEntry: UInt64 = head.major == .map ? 2 : 1
        guard head.argument <= UInt64(bytes.count - head.end) / itemsPerEntry else {
            throw .lengthExceedsInput(offset: head.end)
        }
        return Int(head.argument)
    }

    /// Validates the item at `offset` (and everything inside it, text strings included:
    /// skipped text must be valid UTF-8 too) and returns the offset just past it.
    /// `depth` is the number of arrays, maps and tags enclosing the item; an array, map
    /// or tag at depth `maxDepth` or more is refused, so at most `maxDepth` of them nest
    /// (the top-level item counts as the first).
    func skipItem(at offset: Int, depth: Int = 0) throws(CBORDecodingError) -> Int {
        let head = try head(at: offset)
        switch head.major {
        case .unsigned, .negative, .simple:
            return head.end
        case .bytes:
            return try stringContent(head).upperBound
        case .text:
            let range = try stringContent(head)
            guard CBORText.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[range])) else {
                throw .malformed(reason: "invalid UTF-8 in text string", offset: range.lowerBound)
            }
            return range.upperBound
        case .array, .map:
            guard depth < maxDepth else { throw .depthLimitExceeded(limit: maxDepth, offset: offset) }
            let items = try childCount(head) * (head.major == .map ? 2 : 1)
            var position = head.end
            for _ in 0..<items {
                position = try skipItem(at: position, depth: depth + 1)
            }
            return position
        case .tag:
            guard depth < maxDepth else { throw .depthLimitExceeded(limit: maxDepth, offset: offset) }
            return try skipItem(at: head.end, depth: depth + 1)
        }
    }

    /// The offset just past the item at `offset`, in input that `skipItem` has already
    /// validated: no bounds, UTF-8 or depth checks, and no recursion. The decoder walks
    /// maps to index their keys many times over; only the first walk needs the checks.
    @inline(__always)
    func endOfValidatedItem(at offset: Int) -> Int {
        var position = offset
        var pending = 1 // items still to pass, children included
        while pending > 0 {
            pending -= 1
            let initial = bytes[position]
            let info = initial & 0x1F
            var argument = UInt64(info)
            position += 1
            if info >= 24 {
                let width = 1 << Int(info - 24)
                argument = 0
                for index in 0..<width { argument = argument << 8 | UInt64(bytes[position + index]) }
                position += width
            }
            switch initial >> 5 {
            case CBORMajorType.bytes.rawValue, CBORMajorType.text.rawValue: position += Int(argument)
            case CBORMajorType.array.rawValue: pending += Int(argument)
            case CBORMajorType.map.rawValue: pending += 2 * Int(argument)
            case CBORMajorType.tag.rawValue: pending += 1
            default: break
            }
        }
        return position
    }

    func isNull(at offset: Int) -> Bool {
        guard offset >= 0, offset < bytes.count else { return false }
        let byte = bytes[offset]
        return byte == CBORConstant.nullByte || byte == CBORConstant.undefinedByte
    }
}
