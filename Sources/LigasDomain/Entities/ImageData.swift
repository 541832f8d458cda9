import FoundationEssentials

/// The bytes of a logo or photo, with the content type they were served with.
public struct ImageData: Hashable, Sendable {
    public let bytes: Data
    public let contentType: String

    public init(bytes: Data, contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}
