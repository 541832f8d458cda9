import FoundationEssentials

/// How feeds are encoded inside the cache. JSON keeps the file inspectable with `sqlite3`.
enum FeedCoding {
    static func encode<Resource: Encodable>(_ resource: Resource) throws -> Data {
        try JSONEncoder().encode(resource)
    }

    static func decode<Resource: Decodable>(_ type: Resource.Type, from payload: Data) throws -> Resource {
        try JSONDecoder().decode(type, from: payload)
    }

    /// Whether a stored payload still decodes as the resource its key promises.
    static func decodes(_ payload: Data, as key: FeedKey) -> Bool {
        switch key {
        case .leagues: (try? decode([League].self, from: payload)) != nil
        case .teams: (try? decode([Team].self, from: payload)) != nil
        case .players: (try? decode([Player].self, from: payload)) != nil
        case .matches: (try? decode(Matches.self, from: payload)) != nil
        case .standings: (try? decode([Standing].self, from: payload)) != nil
        case .seasons: (try? decode([LeagueSeason].self, from: payload)) != nil
        }
    }
}
