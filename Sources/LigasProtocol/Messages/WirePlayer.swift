import FoundationEssentials

/// A squad member as sent on the wire.
public struct Player: Codable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var photoURL: URL?
    /// Shirt number, when the source has one.
    public var number: Int?
    public var position: Position
    public var nationality: String?
    public var dataSource: String

    public init(
        id: String, name: String, photoURL: URL? = nil, number: Int? = nil,
        position: Position, nationality: String? = nil, dataSource: String
    ) {
        self.id = id
        self.name = name
        self.photoURL = photoURL
        self.number = number
        self.position = position
        self.nationality = nationality
        self.dataSource = dataSource
    }

    public enum Position: String, Codable, Sendable, CaseIterable, TextEnumeration {
        case coach, goalkeeper, defender, midfielder, forward
    }
}
