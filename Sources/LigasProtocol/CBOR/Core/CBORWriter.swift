import FoundationEssentials

/// The growable byte buffer the encoder writes into, in the preferred (shortest)
/// serialization of RFC 8949 §4.2.1. A plain pointer rather than an `[UInt8]`: an encode
/// appends a few hundred small pieces, and each `Array.append` paid a uniqueness check and
/// a generic copy, the largest cost of encoding. The owner calls `deallocate()`.
struct CBOROutput {
    private(set) var base = UnsafeMutablePointer<UInt8>.allocate(capacity: 1024)
    private(set) var count = 0
    private var capacity = 1024

    func deallocate() { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

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
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Bytes that follow the initial byte in the shortest head for `argument`.
    @inline(__always)
    static func argumentWidth(_ argument: UInt64) -> Int {
        argument < 24 ? 0 : argument <= 0xFF ? 1 : argument <= 0xFFFF ? 2 : argument <= 0xFFFF_FFFF ? 4 : 8
    }

    /// Appends a head (major type + argument) in its shortest form.
    @inline(__always)
    mutating func appendCBORHead(_ major: CBORMajorType, _ argument: UInt64) {
        appendCBORHead(major, argument, width: Self.argumentWidth(argument))
    }

    /// Appends a head with `width` argument bytes (floats always take their precision's width).
    @inline(__always)
    mutating func appendCBORHead(_ major: CBORMajorType, _ argument: UInt64, width: Int) {
        reserve(1 + width)
        writeCBORHead(major, argument, width: width, at: count)
        count += 1 + width
    }

    /// Replaces the one-byte placeholder at `offset` with the shortest head, moving what
    /// follows when it is wider (a container's count is known only when it closes).
    mutating func patchCBORHead(at offset: Int, _ major: CBORMajorType, _ argument: UInt64) {
        let width = Self.argumentWidth(argument)
        if width > 0 {
            reserve(width)
            (base + offset + 1 + width).update(from: base + offset + 1, count: count - offset - 1)
            count += width
        }
        writeCBORHead(major, argument, width: width, at: offset)
    }

    /// Additional information 24...27 announce 1, 2, 4 or 8 argument bytes, big-endian.
    @inline(__always)
    private func writeCBORHead(_ major: CBORMajorType, _ argument: UInt64, width: Int, at offset: Int) {
        base[offset] = major.rawValue << 5 | (width == 0 ? UInt8(argument) : 24 + UInt8(width.trailingZeroBitCount))
        for index in 0..<width {
            base[offset + 1 + index] = UInt8(truncatingIfNeeded: argument >> (8 * (width - 1 - index)))
        }
    }

    mutating func appendCBORSigned(_ value: Int64) {
        // -1 - n without overflow: ~value == -value - 1 and is never negative here.
        value >= 0 ? appendCBORHead(.unsigned, UInt64(value)) : appendCBORHead(.negative, UInt64(~value))
    }

    mutating func appendCBORText(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            appendCBORHead(.text, UInt64(utf8.count))
            append(UnsafeRawBufferPointer(utf8))
        }
    }

    mutating func appendCBORBytes(_ bytes: UnsafeRawBufferPointer) {
        appendCBORHead(.bytes, UInt64(bytes.count))
        append(bytes)
    }

    /// Writes a float in the shortest of half/single/double that keeps the exact value
    /// (RFC 8949 §4.2.1); NaN always becomes the canonical half NaN 0xF97E00.
    mutating func appendCBORDouble(_ value: Double) {
        let single = Float(value)
        if value.isNaN {
            appendCBORHead(.simple, UInt64(CBORConstant.nanHalfBits), width: 2)
        } else if Double(single) != value {
            appendCBORHead(.simple, value.bitPattern, width: 8)
        } else if let halfBits = HalfFloat.exactBits(of: single) {
            appendCBORHead(.simple, UInt64(halfBits), width: 2)
        } else {
            appendCBORHead(.simple, UInt64(single.bitPattern), width: 4)
        }
    }
}
