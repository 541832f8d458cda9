import Foundation

// Direct CBOR codecs of requests and their arguments (see `CBORDirectCodable`).

extension Request: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        let hasArguments = call.method.takesArguments
        out.appendCBORHead(.map, UInt64(2 + (hasArguments ? 1 : 0) + (deadlineMs == nil ? 0 : 1)))
        switch call {
        case .teams(let arguments): out.appendCBORText("args"); try arguments.writeCBOR(to: &out)
        case .players(let arguments): out.appendCBORText("args"); try arguments.writeCBOR(to: &out)
        case .matches(let arguments): out.appendCBORText("args"); try arguments.writeCBOR(to: &out)
        case .image(let arguments): out.appendCBORText("args"); try arguments.writeCBOR(to: &out)
        case .ping, .leagues, .status, .describe: break
        }
        out.appendCBORText("cache"); out.appendCBORText(cache.rawValue)
        out.appendCBORText("method"); out.appendCBORText(call.method.rawValue)
        if let deadlineMs { out.appendCBORText("deadlineMs"); out.appendCBORUnsigned(UInt64(deadlineMs)) }
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Request, end: Int) {
        var arguments, cache, method, deadlineMs: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "args": keepFirst(&arguments, value)
            case "cache": keepFirst(&cache, value)
            case "method": keepFirst(&method, value)
            case "deadlineMs": keepFirst(&deadlineMs, value)
            default: break
            }
        }
        let name = try cursor.string(method, CodingKeys.method)
        guard let knownMethod = Method(rawValue: name) else { throw UnknownMethodError(name: name) }
        let cachePolicy = try cursor.present(cache).map { try cursor.textEnum(CachePolicy.self, at: $0, CodingKeys.cache) }
        let deadline = try cursor.optionalInteger(UInt32.self, deadlineMs, CodingKeys.deadlineMs)
        let call: Call = switch knownMethod {
        case .ping: .ping
        case .leagues: .leagues
        case .teams: .teams(try cursor.nested(TeamsArguments.self, arguments, CodingKeys.args))
        case .players: .players(try cursor.nested(PlayersArguments.self, arguments, CodingKeys.args))
        case .matches: .matches(try cursor.nested(MatchesArguments.self, arguments, CodingKeys.args))
        case .image: .image(try cursor.nested(ImageArguments.self, arguments, CodingKeys.args))
        case .status: .status
        case .describe: .describe
        }
        return (Request(call, deadlineMs: deadline, cache: cachePolicy ?? .default), end)
    }
}

extension Method {
    var takesArguments: Bool {
        switch self {
        case .teams, .players, .matches, .image: true
        case .ping, .leagues, .status, .describe: false
        }
    }
}

extension TeamsArguments: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 1)
        out.appendCBORText("league"); out.appendCBORText(league)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: TeamsArguments, end: Int) {
        var league: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            if case "league" = key { keepFirst(&league, value) }
        }
        return (TeamsArguments(league: try cursor.string(league, CodingKeys.league)), end)
    }
}

extension PlayersArguments: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 1)
        out.appendCBORText("team"); out.appendCBORText(team)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: PlayersArguments, end: Int) {
        var team: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            if case "team" = key { keepFirst(&team, value) }
        }
        return (PlayersArguments(team: try cursor.string(team, CodingKeys.team)), end)
    }
}

extension MatchesArguments: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, team == nil ? 1 : 2)
        if let team { out.appendCBORText("team"); out.appendCBORText(team) }
        out.appendCBORText("league"); out.appendCBORText(league)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: MatchesArguments, end: Int) {
        var league, team: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "league": keepFirst(&league, value)
            case "team": keepFirst(&team, value)
            default: break
            }
        }
        return (MatchesArguments(
            league: try cursor.string(league, CodingKeys.league),
            team: try cursor.optionalString(team, CodingKeys.team)
        ), end)
    }
}

extension ImageArguments: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 1)
        switch self {
        case .url(let url): out.appendCBORText("url"); CBORURLForm.append(url, to: &out)
        case .league(let id): out.appendCBORText("league"); out.appendCBORText(id)
        case .team(let id): out.appendCBORText("team"); out.appendCBORText(id)
        case .player(let id): out.appendCBORText("player"); out.appendCBORText(id)
        }
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: ImageArguments, end: Int) {
        var url, league, team, player: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, value in
            switch key {
            case "url": keepFirst(&url, value)
            case "league": keepFirst(&league, value)
            case "team": keepFirst(&team, value)
            case "player": keepFirst(&player, value)
            default: break
            }
        }
        switch (url, league, team, player) {
        case (let url?, nil, nil, nil): return (.url(try cursor.url(url, CodingKeys.url)), end)
        case (nil, let league?, nil, nil): return (.league(try cursor.string(league, CodingKeys.league)), end)
        case (nil, nil, let team?, nil): return (.team(try cursor.string(team, CodingKeys.team)), end)
        case (nil, nil, nil, let player?): return (.player(try cursor.string(player, CodingKeys.player)), end)
        default:
            throw CBORDecodingError.invalidValue(
                reason: ImageArguments.oneKeyRequired, path: cursor.path(appending: nil)
            )
        }
    }

    static let oneKeyRequired = "exactly one of url, league, team, player is required"
}
