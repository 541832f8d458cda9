import Foundation

// Direct CBOR codecs of the wire DTOs (see `CBORDirectCodable`). Writers emit keys in
// deterministic order (shorter first, then bytewise); readers decode fields in
// declaration order, like the synthesized `init(from:)`.

extension League: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 4)
        out.appendCBORText("id"); out.appendCBORText(id)
        out.appendCBORText("name"); out.appendCBORText(name)
        out.appendCBORText("logoURL"); CBORURLForm.append(logoURL, to: &out)
        out.appendCBORText("dataSource"); out.appendCBORText(dataSource)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: League, end: Int) {
        let fields = try IdentifiedFields(at: offset, cursor: cursor)
        return (League(
            id: try cursor.string(fields.id, CodingKeys.id),
            name: try cursor.string(fields.name, CodingKeys.name),
            logoURL: try cursor.url(fields.logoURL, CodingKeys.logoURL),
            dataSource: try cursor.string(fields.dataSource, CodingKeys.dataSource)
        ), fields.end)
    }
}

extension Team: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 4)
        out.appendCBORText("id"); out.appendCBORText(id)
        out.appendCBORText("name"); out.appendCBORText(name)
        out.appendCBORText("logoURL"); CBORURLForm.append(logoURL, to: &out)
        out.appendCBORText("dataSource"); out.appendCBORText(dataSource)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Team, end: Int) {
        let fields = try IdentifiedFields(at: offset, cursor: cursor)
        return (Team(
            id: try cursor.string(fields.id, CodingKeys.id),
            name: try cursor.string(fields.name, CodingKeys.name),
            logoURL: try cursor.url(fields.logoURL, CodingKeys.logoURL),
            dataSource: try cursor.string(fields.dataSource, CodingKeys.dataSource)
        ), fields.end)
    }
}

/// Value offsets of the fields League and Team share.
private struct IdentifiedFields {
    var id: Int?
    var name: Int?
    var logoURL: Int?
    var dataSource: Int?
    var end = 0

    init(at offset: Int, cursor: CBORCursor) throws {
        end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "id": keepFirst(&id, value)
            case "name": keepFirst(&name, value)
            case "logoURL": keepFirst(&logoURL, value)
            case "dataSource": keepFirst(&dataSource, value)
            default: break
            }
        }
    }
}

extension Player: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        let count = 4 + (photoURL == nil ? 0 : 1) + (number == nil ? 0 : 1) + (nationality == nil ? 0 : 1)
        out.appendCBORHead(.map, UInt64(count))
        out.appendCBORText("id"); out.appendCBORText(id)
        out.appendCBORText("name"); out.appendCBORText(name)
        if let number { out.appendCBORText("number"); out.appendCBORSigned(Int64(number)) }
        if let photoURL { out.appendCBORText("photoURL"); CBORURLForm.append(photoURL, to: &out) }
        out.appendCBORText("position"); out.appendCBORText(position.rawValue)
        out.appendCBORText("dataSource"); out.appendCBORText(dataSource)
        if let nationality { out.appendCBORText("nationality"); out.appendCBORText(nationality) }
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Player, end: Int) {
        var id, name, photoURL, number, position, nationality, dataSource: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "id": keepFirst(&id, value)
            case "name": keepFirst(&name, value)
            case "photoURL": keepFirst(&photoURL, value)
            case "number": keepFirst(&number, value)
            case "position": keepFirst(&position, value)
            case "nationality": keepFirst(&nationality, value)
            case "dataSource": keepFirst(&dataSource, value)
            default: break
            }
        }
        return (Player(
            id: try cursor.string(id, CodingKeys.id),
            name: try cursor.string(name, CodingKeys.name),
            photoURL: try cursor.optionalURL(photoURL, CodingKeys.photoURL),
            number: try cursor.optionalInteger(Int.self, number, CodingKeys.number),
            position: try cursor.textEnum(Position.self, position, CodingKeys.position),
            nationality: try cursor.optionalString(nationality, CodingKeys.nationality),
            dataSource: try cursor.string(dataSource, CodingKeys.dataSource)
        ), end)
    }
}

extension Match: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 4)
        out.appendCBORText("away"); out.appendCBORText(away)
        out.appendCBORText("date"); try CBORDateForm.append(date, to: &out)
        out.appendCBORText("home"); out.appendCBORText(home)
        out.appendCBORText("description"); out.appendCBORText(description)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Match, end: Int) {
        let fields = try MatchFields(at: offset, cursor: cursor)
        return (Match(
            date: try cursor.date(fields.date, CodingKeys.date),
            description: try cursor.string(fields.description, CodingKeys.description),
            home: try cursor.string(fields.home, CodingKeys.home),
            away: try cursor.string(fields.away, CodingKeys.away)
        ), fields.end)
    }
}

extension PreviousMatch: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 6)
        out.appendCBORText("away"); out.appendCBORText(away)
        out.appendCBORText("date"); try CBORDateForm.append(date, to: &out)
        out.appendCBORText("home"); out.appendCBORText(home)
        out.appendCBORText("winner"); out.appendCBORText(winner)
        out.appendCBORText("highlights"); CBORURLForm.append(highlights, to: &out)
        out.appendCBORText("description"); out.appendCBORText(description)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: PreviousMatch, end: Int) {
        let fields = try MatchFields(at: offset, cursor: cursor)
        return (PreviousMatch(
            date: try cursor.date(fields.date, CodingKeys.date),
            description: try cursor.string(fields.description, CodingKeys.description),
            home: try cursor.string(fields.home, CodingKeys.home),
            away: try cursor.string(fields.away, CodingKeys.away),
            winner: try cursor.string(fields.winner, CodingKeys.winner),
            highlights: try cursor.url(fields.highlights, CodingKeys.highlights)
        ), fields.end)
    }
}

/// Value offsets of the fields of Match and PreviousMatch.
private struct MatchFields {
    var date: Int?
    var description: Int?
    var home: Int?
    var away: Int?
    var winner: Int?
    var highlights: Int?
    var end = 0

    init(at offset: Int, cursor: CBORCursor) throws {
        end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "date": keepFirst(&date, value)
            case "description": keepFirst(&description, value)
            case "home": keepFirst(&home, value)
            case "away": keepFirst(&away, value)
            case "winner": keepFirst(&winner, value)
            case "highlights": keepFirst(&highlights, value)
            default: break
            }
        }
    }
}

extension Matches: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 2)
        out.appendCBORText("previous"); try previous.writeCBOR(to: &out)
        out.appendCBORText("upcoming"); try upcoming.writeCBOR(to: &out)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Matches, end: Int) {
        var previous, upcoming: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "previous": keepFirst(&previous, value)
            case "upcoming": keepFirst(&upcoming, value)
            default: break
            }
        }
        return (Matches(
            previous: try cursor.nested([PreviousMatch].self, previous, CodingKeys.previous),
            upcoming: try cursor.nested([UpcomingMatch].self, upcoming, CodingKeys.upcoming)
        ), end)
    }
}
