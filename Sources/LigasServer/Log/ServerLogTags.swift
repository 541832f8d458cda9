import Logging

/// Metadata the server adds to its notable log entries, so that whoever runs it can find them:
/// ligasd passes its journal `MESSAGE_ID`s (explained by its journal catalog). The server knows
/// nothing of journald; it only copies each tag into the entry's metadata. The values are built
/// once, so a request's log entry costs no extra allocation for its tag.
public struct ServerLogTags: Sendable {
    /// One metadata key and value.
    public struct Tag: Sendable {
        public let key: String
        public let value: Logger.MetadataValue

        public init(key: String, value: Logger.MetadataValue) {
            self.key = key
            self.value = value
        }
    }

    /// On the entry of each request answered with a value or an error ("request served").
    public var requestServed: Tag?
    /// On the entry of each image stream that ended ("image stream …").
    public var imageStreamed: Tag?
    /// On each "client protocol error" entry.
    public var clientProtocolError: Tag?

    public init(requestServed: Tag? = nil, imageStreamed: Tag? = nil, clientProtocolError: Tag? = nil) {
        self.requestServed = requestServed
        self.imageStreamed = imageStreamed
        self.clientProtocolError = clientProtocolError
    }
}

extension Logger.Metadata {
    /// Adds `tag`, if any.
    mutating func tag(_ tag: ServerLogTags.Tag?) {
        if let tag { self[tag.key] = tag.value }
    }
}
