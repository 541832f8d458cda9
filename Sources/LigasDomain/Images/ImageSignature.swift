import FoundationEssentials

/// Recognises image files by their first bytes, for remotes that serve images with a generic
/// content type such as `application/octet-stream`.
public enum ImageSignature {
    /// Bytes needed to recognise every supported format.
    public static let prefixLength = 12

    public static func contentType(ofPrefix prefix: Data) -> String? {
        let bytes = [UInt8](prefix.prefix(prefixLength))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }

    public static func isImageContentType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        return contentType.lowercased().hasPrefix("image/")
    }
}
