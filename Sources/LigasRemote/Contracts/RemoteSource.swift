import FoundationEssentials
import LigasDomain

/// A secret that never prints: `description`, `debugDescription` and string interpolation
/// all give `<redacted>`, so an API key cannot reach a log line by accident.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    let value: String

    public init?(_ value: String) {
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        self.value = trimmed
    }

    /// Whether a control character is inside it (a key file of two lines, say): no HTTP header
    /// can carry one, and the HTTP library's error would quote the header, key and all.
    public var hasControlCharacter: Bool {
        value.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
}

/// One configured remote: which contract it speaks, where it lives, and its key if any.
public struct RemoteSource: Sendable, Hashable {
    public let dataSource: DataSource
    /// Always ends in "/", so relative references in payloads resolve beneath it.
    public let baseURL: URL
    public let apiKey: APIKey?

    public init(dataSource: DataSource, baseURL: URL, apiKey: APIKey? = nil) {
        self.dataSource = dataSource
        self.baseURL = baseURL.absoluteString.hasSuffix("/")
            ? baseURL : URL(string: baseURL.absoluteString + "/") ?? baseURL
        self.apiKey = apiKey
    }
}
