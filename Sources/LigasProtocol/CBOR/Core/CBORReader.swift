/// A decoded CBOR head: major type, additional info, argument, and `end`, the offset just
/// past the head (the content of strings, the first child of containers).
typealias CBORHead = (major: CBORMajorType, additionalInfo: UInt8, argument: UInt64, end: Int)

/// Reads over untrusted input. `head` and `skipItem` check everything against
/// `bytes.count` before touching memory and reject indefinite lengths and reserved
/// additional information; the `validated` reads trust input that `skipItem` passed.
struct CBORReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int

    /// The head at `offset`, checked: inside the input, a definite length, no reserved
    /// additional information, no two-byte simple value below 32.
    @inline(__always)
    func head(at offset: Int) throws(CBORDecodingError) -> CBORHead {
        guard offset >= 0, offset < bytes.count else { throw .truncated(offset: offset) }
        switch bytes[offset] & 0x1F {
        case 0..<24: break
        case let info where info <= 27:
            guard 1 << Int(info - 24) < bytes.count - offset else { throw .truncated(offset: offset) }
        case 31: throw .malformed(reason: "indefinite length is not allowed", offset: offset)
        case let info: throw .malformed(reason: "reserved additional information \(info)", offset: offset)
        }
        let head = validatedHead(at: offset)
        if head.major == .simple, head.additionalInfo == 24, head.argument < 32 {
            throw .malformed(reason: "two-byte simple value below 32", offset: offset)
        }
        return head
    }

    /// The head at `offset` in input that `skipItem` has already validated: no checks.
    @inline(__always)
    func validatedHead(at offset: Int) -> CBORHead {
        let initial = bytes[offset]
        // Every 3-bit value is a case, by position (see CBORMajorType); the failable
        // init(rawValue:) was not inlined and showed up in profiles.
        let major = unsafeBitCast(initial >> 5, to: CBORMajorType.self)
        let info = initial & 0x1F
        guard info >= 24 else { return (major, info, UInt64(info), offset + 1) }
        let width = 1 << Int(info - 24)
        var argument: UInt64 = 0
        for index in 1...width {
            argument = argument << 8 | UInt64(bytes[offset + index])
        }
        return (major, info, argument, offset + 1 + width)
    }

    /// Validates the item at `offset` and everything inside it (skipped text must be valid
    /// UTF-8 too), and returns the offset just past it. `depth` counts the arrays, maps and
    /// tags around the item: one at depth `maxDepth` is refused, so at most `maxDepth` nest
    /// (the top-level item is the first). Lengths and counts are checked against the rest of
    /// the input (an item takes a byte at least): no announced length drives a large loop.
    func skipItem(at offset: Int, depth: Int = 0) throws(CBORDecodingError) -> Int {
        let head = try head(at: offset)
        let remaining = UInt64(bytes.count - head.end)
        switch head.major {
        case .unsigned, .negative, .simple:
            return head.end
        case .bytes, .text:
            guard head.argument <= remaining else { throw .lengthExceedsInput(offset: head.end) }
            let content = head.end..<(head.end + Int(head.argument))
            if head.major == .text, !CBORText.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[content])) {
                throw .malformed(reason: "invalid UTF-8 in text string", offset: head.end)
            }
            return content.upperBound
        case .array, .map, .tag:
            guard depth < maxDepth else { throw .depthLimitExceeded(limit: maxDepth, offset: offset) }
            let itemsPerEntry: UInt64 = head.major == .map ? 2 : 1
            guard head.major == .tag || head.argument <= remaining / itemsPerEntry else {
                throw .lengthExceedsInput(offset: head.end)
            }
            var position = head.end
            for _ in 0..<(head.major == .tag ? 1 : head.argument * itemsPerEntry) {
                position = try skipItem(at: position, depth: depth + 1)
            }
            return position
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
            let head = validatedHead(at: position)
            position = head.end
            switch head.major {
            case .bytes, .text: position += Int(head.argument)
            case .array: pending += Int(head.argument)
            case .map: pending += 2 * Int(head.argument)
            case .tag: pending += 1
            default: break
            }
        }
        return position
    }

    /// Null, or undefined (which PROTOCOL.md treats alike), at a validated offset.
    func isNull(at offset: Int) -> Bool {
        let byte = bytes[offset]
        return byte == CBORConstant.nullByte || byte == CBORConstant.undefinedByte
    }
}
