import FoundationEssentials

/// A league as sent on the wire (the server maps its domain model to this).
public struct League: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var logoURL: URL
    /// Which provider the data comes from, e.g. "ligapro-api".
    public var dataSource: String

    public init(id: String, name: String, logoURL: URL, dataSource: String) {
        self.id = id
        self.name = name
        self.logoURL = logoURL
        self.dataSource = dataSource
    }
}

/// A team as sent on the wire.
public struct Team: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var logoURL: URL
    public var dataSource: String

    public init(id: String, name: String, logoURL: URL, dataSource: String) {
        self.id = id
        self.name = name
        self.logoURL = logoURL
        self.dataSource = dataSource
    }
}
