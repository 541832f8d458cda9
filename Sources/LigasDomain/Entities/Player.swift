import FoundationEssentials

public struct Player: Hashable, Codable, Sendable {
    public enum Position: String, Hashable, Codable, Sendable, CaseIterable {
        case coach, goalkeeper, defender, midfielder, forward
    }

    public let id: String
    public let name: String
    public let photoURL: URL?
    public let number: Int?
    public let position: Position
    public let nationality: String?
    public let dataSource: DataSource

    public init(
        id: String, name: String, photoURL: URL?, number: Int?,
        position: Position, nationality: String?, dataSource: DataSource
    ) {
        self.id = id
        self.name = name
        self.photoURL = photoURL
        self.number = number
        self.position = position
        self.nationality = nationality
        self.dataSource = dataSource
    }
}
