import FoundationEssentials

/// Recognises image files by their first bytes, for remotes that serve images with a generic
/// content type such as `application/octet-stream`, or a wrong one.
public enum ImageSignature {
    /// Bytes needed to recognise every supported format.
    public static let prefixLength = 12

    /// The formats known by their bytes: a content type, the other names servers give it, and
    /// whether a file's first bytes are its.
    private static let formats: [(contentType: String, aliases: [String], begins: @Sendable ([UInt8]) -> Bool)] = [
        ("image/png", ["image/x-png"], { starts($0, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }),
        ("image/jpeg", ["image/jpg", "image/pjpeg"], { starts($0, with: [0xFF, 0xD8, 0xFF]) }),
        ("image/gif", [], { starts($0, with: Array("GIF87a".utf8)) || starts($0, with: Array("GIF89a".utf8)) }),
        ("image/webp", [], { starts($0, with: Array("RIFF".utf8)) && starts($0, with: Array("WEBP".utf8), at: 8) }),
    ]

    private static func starts(_ bytes: [UInt8], with magic: [UInt8], at offset: Int = 0) -> Bool {
        bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
    }

    public static func contentType(ofPrefix prefix: Data) -> String? {
        let bytes = [UInt8](prefix.prefix(prefixLength))
        return formats.first { $0.begins(bytes) }?.contentType
    }

    /// Whether `contentType` names a format recognised here (parameters and case aside): bytes
    /// without its signature are then not that image.
    public static func isRecognisable(_ contentType: String) -> Bool {
        let type = contentType.prefix { $0 != ";" }.filter { !$0.isWhitespace }.lowercased()
        return formats.contains { $0.contentType == type || $0.aliases.contains(type) }
    }

    public static func isImageContentType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        return contentType.lowercased().hasPrefix("image/")
    }
}
