import FoundationEssentials

/// Payload of the `response` frame (flag `streamFollows`) that opens an image stream.
public struct StreamHeader: Codable, Sendable, Hashable {
    /// MIME type, e.g. "image/png".
    public var contentType: String
    /// Total bytes, when known in advance.
    public var totalSize: UInt64?
    public var source: ResultSource

    public init(contentType: String, totalSize: UInt64? = nil, source: ResultSource) {
        self.contentType = contentType
        self.totalSize = totalSize
        self.source = source
    }
}

/// Payload of the `streamEnd` frame: lets the client verify what it received.
public struct StreamEnd: Codable, Sendable, Hashable {
    public static let digestLength = 32

    /// Sum of the chunk payload lengths.
    public var totalBytes: UInt64
    /// SHA-256 (FIPS 180-4) of the concatenated chunk payloads, 32 bytes.
    public var sha256: Data

    public init(totalBytes: UInt64, sha256: Data) {
        self.totalBytes = totalBytes
        self.sha256 = sha256
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        totalBytes = try container.decode(UInt64.self, forKey: .totalBytes)
        sha256 = try container.decode(Data.self, forKey: .sha256)
        guard sha256.count == Self.digestLength else {
            let reason = "sha256 must be \(Self.digestLength) bytes, got \(sha256.count)"
            throw DecodingError.dataCorruptedError(forKey: .sha256, in: container, debugDescription: reason)
        }
    }
}
