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

    /// Parses and validates a header; `bytes` must hold at least `size` bytes.
    static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, supportedVersions: ClosedRange<UInt8>
    ) throws(FrameError) -> FrameHeader {
        guard bytes.count >= size else { throw .frameTooShort(length: bytes.count) }
        let version = bytes[0]
        guard supportedVersions.contains(version) else { throw .unsupportedVersion(version) }
        guard let kind = FrameKind(rawValue: bytes[1]) else { throw .unknownFrameKind(bytes[1]) }
        let flags = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        let requestID = UInt32(bytes[4]) << 24 | UInt32(bytes[5]) << 16 | UInt32(bytes[6]) << 8 | UInt32(bytes[7])
        guard flags & ~FrameFlags.allowed(for: kind).rawValue == 0 else {
            throw .reservedFlags(kind: kind, flags: flags)
        }
        let header = FrameHeader(version: version, kind: kind, flags: FrameFlags(rawValue: flags), requestID: requestID)
        guard header.hasValidRequestID else { throw .invalidRequestID(kind: kind, requestID: requestID) }
        return header
    }

    /// Hello is connection-level (id 0); calls and their frames use non-zero ids;
    /// an error frame may use 0 for a connection-level error.
    var hasValidRequestID: Bool {
        switch kind {
        case .hello: requestID == 0
        case .error: true
        default: requestID != 0
        }
    }
}
