import FoundationEssentials

/// The growable byte buffer the encoder writes into. A plain pointer rather than an
/// `[UInt8]`: an encode appends a few hundred small pieces, and each `Array.append`
/// paid a uniqueness check and a generic copy, the largest cost of encoding. The owner
/// calls `deallocate()` when done (the encoder does so in a `defer`).
///
/// Everything written here is the *preferred* (shortest) serialization required by
/// RFC 8949 §4.2.1 core deterministic encoding.
struct CBOROutput {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    subscript(offset: Int) -> UInt8 {
        get { base[offset] }
        set { base[offset] = newValue }
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard capacity - count < extra else { return }
        let newCapacity = Swift.max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Opens `width` zero bytes at `offset`, moving what follows (a container head that
    /// turned out wider than its one-byte placeholder).
    mutating func insertZeros(_ width: Int, at offset: Int) {
        reserve(width)
        (base + offset + width).update(from: base + offset, count: count - offset)
        (base + offset).update(repeating: 0, count: width)
        count += width
    }

    // MARK: CBOR items

    /// Appends a head (major type + argument) in its shortest form.
    @inline(__always)
    mutating func appendCBORHead(_ major: CBORMajorType, _ argument: UInt64) {
        let high = major.rawValue << 5
        if argument < 24 {
            append(high | UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xFF {
            append(high | 24)
            append(UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xFFFF {
            append(high | 25)
            appendBigEndian(UInt16(truncatingIfNeeded: argument))
        } else if argument <= 0xFFFF_FFFF {
            append(high | 26)
            appendBigEndian(UInt32(truncatingIfNeeded: argument))
        } else {
            append(high | 27)
            appendBigEndian(argument)
        }
    }

    @inline(__always)
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        var bigEndian = value.bigEndian
        Swift.withUnsafeBytes(of: &bigEndian) { append($0.bindMemory(to: UInt8.self)) }
    }

    mutating func appendCBORUnsigned(_ value: UInt64) {
        appendCBORHead(.unsigned, value)
    }

    mutating func appendCBORSigned(_ value: Int64) {
        if value >= 0 {
            appendCBORHead(.unsigned, UInt64(value))
        } else {
            // -1 - n without overflow: ~value == -value - 1 and is never negative here.
            appendCBORHead(.negative, UInt64(~value))
        }
    }

    mutating func appendCBORBool(_ value: Bool) {
        append(value ? CBORConstant.trueByte : CBORConstant.falseByte)
    }

    mutating func appendCBORNull() {
        append(CBORConstant.nullByte)
    }

    mutating func appendCBORText(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendCBORHead(.text, UInt64(utf8.count))
            append(utf8)
        }
    }

    mutating func appendCBORBytes(_ bytes: UnsafeRawBufferPointer) {
        appendCBORHead(.bytes, UInt64(bytes.count))
        append(bytes.bindMemory(to: UInt8.self))
    }

    mutating func appendCBORTag(_ tag: UInt64) {
        appendCBORHead(.tag, tag)
    }

    /// Writes a float in the shortest of half/single/double that keeps the exact value
    /// (RFC 8949 §4.2.1); NaN always becomes the canonical half NaN 0xF97E00.
    mutating func appendCBORDouble(_ value: Double) {
        if value.isNaN {
            append(CBORConstant.half)
            appendBigEndian(CBORConstant.nanHalfBits)
            return
        }
        let single = Float(value)
        guard Double(single) == value else {
            append(CBORConstant.double)
            appendBigEndian(value.bitPattern)
            return
        }
        if let halfBits = HalfFloat.exactBits(of: single) {
            append(CBORConstant.half)
            appendBigEndian(halfBits)
        } else {
            append(CBORConstant.single)
            appendBigEndian(single.bitPattern)
        }
    }
}

extension Array where Element == UInt8 {
    /// For the frame header and length prefix, which are built in plain arrays.
    @inline(__always)
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        var bigEndian = value.bigEndian
        Swift.withUnsafeBytes(of: &bigEndian) { append(contentsOf: $0) }
    }
}

extension Array {
    /// `removeSubrange(count...)` went through the generic `replaceSubrange` and showed in
    /// profiles; the coders trim their stacks after every nested value.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        if newCount < count { removeLast(count - newCount) }
    }
}
