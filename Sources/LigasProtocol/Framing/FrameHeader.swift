/// The fixed 8-byte header that starts every frame after the length prefix:
///
///     0        1        2        3        4        5        6        7
///     +--------+--------+--------+--------+--------+--------+--------+--------+
///     |version |  kind  |  flags (u16 BE) |       request id (u32 BE)         |
///     +--------+--------+--------+--------+--------+--------+--------+--------+
public struct FrameHeader: Sendable, Hashable {
    public static let size = 8

    public var version: UInt8
    public var kind: FrameKind
    public var flags: FrameFlags
    public var requestID: UInt32

    public init(version: UInt8 = ProtocolVersion.current, kind: FrameKind, flags: FrameFlags = [], requestID: UInt32) {
        self.version = version
        self.kind = kind
        self.flags = flags
        self.requestID = requestID
    }

    func append(to out: inout [UInt8]) {
        out.append(version)
        out.append(kind.rawValue)
        out.appendBigEndian(flags.rawValue)
        out.appendBigEndian(requestID)
    }

    /// Parses and validates the header at `offset`; `bytes` must hold `size` bytes there.
    static func parse(_ bytes: [UInt8], at offset: Int) throws(FrameError) -> FrameHeader {
        let version = bytes[offset]
        guard ProtocolVersion.supported.contains(version) else { throw .unsupportedVersion(version) }
        guard let kind = FrameKind(rawValue: bytes[offset + 1]) else { throw .unknownFrameKind(bytes[offset + 1]) }
        return try FrameHeader(
            validating: version, kind, flags: bytes.bigEndian(UInt16.self, at: offset + 2),
            requestID: bytes.bigEndian(UInt32.self, at: offset + 4)
        )
    }

    /// A header as a receiver accepts it, so a sender can refuse to write one that would be
    /// rejected: no flag undefined for the kind; request id 0 on hello (connection-level),
    /// non-zero on calls and their frames, either on error (0: about the connection).
    init(validating version: UInt8, _ kind: FrameKind, flags: UInt16, requestID: UInt32) throws(FrameError) {
        guard flags & ~FrameFlags.allowed(for: kind).rawValue == 0 else { throw .reservedFlags(kind: kind, flags: flags) }
        let validID = switch kind {
        case .hello: requestID == 0
        case .error: true
        default: requestID != 0
        }
        guard validID else { throw .invalidRequestID(kind: kind, requestID: requestID) }
        self.init(version: version, kind: kind, flags: FrameFlags(rawValue: flags), requestID: requestID)
    }
}

/// Big-endian integers of the length prefix and the frame header, in plain byte arrays.
extension Array where Element == UInt8 {
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        var bigEndian = value.bigEndian
        Swift.withUnsafeBytes(of: &bigEndian) { append(contentsOf: $0) }
    }

    func bigEndian<I: FixedWidthInteger>(_ type: I.Type, at offset: Int) -> I {
        self[offset..<(offset + I.bitWidth / 8)].reduce(0) { $0 << 8 | I($1) }
    }
}
