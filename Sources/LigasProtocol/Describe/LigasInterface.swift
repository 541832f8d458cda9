/// The interface this library implements, as returned by `describe`. Kept next to the
/// types it describes; a test checks it against their actual encodings.
extension InterfaceDescription {
    public static let ligas = InterfaceDescription(
        name: "ligas",
        protocolVersion: ProtocolVersion.current,
        methods: [
            MethodDescription(name: "ping", summary: "Liveness check; answers an empty map.", result: "PingResult"),
            MethodDescription(name: "leagues", summary: "All known leagues.", result: "LeaguesResult"),
            MethodDescription(name: "teams", summary: "Teams of a league.", arguments: "TeamsArguments", result: "TeamsResult"),
            MethodDescription(name: "players", summary: "Squad of a team.", arguments: "PlayersArguments", result: "PlayersResult"),
            MethodDescription(
                name: "matches", summary: "Previous and upcoming matches of a league, optionally of one team.",
                arguments: "MatchesArguments", result: "MatchesResult"
            ),
            MethodDescription(
                name: "image", summary: "Streams a logo or photo as raw chunks, then a streamEnd with SHA-256.",
                arguments: "ImageArguments", result: "StreamHeader", streams: true
            ),
            MethodDescription(name: "status", summary: "Daemon counters.", result: "DaemonStatus"),
            MethodDescription(name: "describe", summary: "This description.", result: "InterfaceDescription"),
        ],
        types: [
            .map("Hello", [
                .init("versions", "[uint]"), .init("maxFrameSize", "uint"), .init("maxInFlight", "uint"),
                .init("chunkSize", "uint"), .init("agent", "text"),
            ]),
            .map("Request", [
                .init("method", "text"), .init("args", "map", optional: true),
                .init("cache", "CachePolicy", optional: true), .init("deadlineMs", "uint", optional: true),
            ]),
            .textEnum("CachePolicy", CachePolicy.allCases.map(\.rawValue)),
            .map("TeamsArguments", [.init("league", "text")]),
            .map("PlayersArguments", [.init("team", "text")]),
            .map("MatchesArguments", [.init("league", "text"), .init("team", "text", optional: true)]),
            .choice("ImageArguments", [
                .init("url", "url"), .init("league", "text"), .init("team", "text"), .init("player", "text"),
            ]),
            .textEnum("ResultSource", ResultSource.allCases.map(\.rawValue)),
            .map("PingResult", []),
            .map("LeaguesResult", [.init("source", "ResultSource"), .init("value", "[League]")]),
            .map("TeamsResult", [.init("source", "ResultSource"), .init("value", "[Team]")]),
            .map("PlayersResult", [.init("source", "ResultSource"), .init("value", "[Player]")]),
            .map("MatchesResult", [.init("source", "ResultSource"), .init("value", "Matches")]),
            .map("League", [
                .init("id", "text"), .init("name", "text"), .init("logoURL", "url"), .init("dataSource", "text"),
            ]),
            .map("Team", [
                .init("id", "text"), .init("name", "text"), .init("logoURL", "url"), .init("dataSource", "text"),
            ]),
            .map("Player", [
                .init("id", "text"), .init("name", "text"), .init("photoURL", "url", optional: true),
                .init("number", "int", optional: true), .init("position", "Position"),
                .init("nationality", "text", optional: true), .init("dataSource", "text"),
            ]),
            .textEnum("Position", Player.Position.allCases.map(\.rawValue)),
            .map("Match", [
                .init("date", "date"), .init("description", "text"), .init("home", "text"), .init("away", "text"),
            ]),
            .map("PreviousMatch", [
                .init("date", "date"), .init("description", "text"), .init("home", "text"), .init("away", "text"),
                .init("winner", "text"), .init("highlights", "url"),
            ]),
            .map("Matches", [.init("previous", "[PreviousMatch]"), .init("upcoming", "[Match]")]),
            .map("StreamHeader", [
                .init("contentType", "text"), .init("totalSize", "uint", optional: true), .init("source", "ResultSource"),
            ]),
            .map("StreamEnd", [.init("totalBytes", "uint"), .init("sha256", "bytes")]),
            .map("DaemonStatus", [
                .init("version", "text"), .init("protocolVersion", "uint"), .init("uptimeSeconds", "uint"),
                .init("openConnections", "uint"), .init("inFlightRequests", "uint"), .init("requestsServed", "uint"),
                .init("cacheHits", "uint"), .init("cacheMisses", "uint"), .init("remoteFailures", "uint"),
            ]),
            .map("ErrorBody", [
                .init("code", "text"), .init("message", "text"), .init("details", "map<text,text>", optional: true),
            ]),
            .map("InterfaceDescription", [
                .init("name", "text"), .init("protocolVersion", "uint"), .init("methods", "[map]"),
                .init("types", "[map]"), .init("errors", "[map]"), .init("frameKinds", "[map]"),
            ]),
        ],
        errors: ErrorCode.known.map { ErrorDescription(code: $0.code.rawValue, summary: $0.summary) },
        frameKinds: [
            FrameKindDescription(name: "hello", code: FrameKind.hello.rawValue, summary: "Handshake, both directions, request id 0."),
            FrameKindDescription(name: "request", code: FrameKind.request.rawValue, summary: "Client call (Request)."),
            FrameKindDescription(
                name: "response", code: FrameKind.response.rawValue,
                summary: "Result; with flag streamFollows (bit 0) a StreamHeader."
            ),
            FrameKindDescription(name: "error", code: FrameKind.error.rawValue, summary: "ErrorBody; request id 0 = connection."),
            FrameKindDescription(name: "streamChunk", code: FrameKind.streamChunk.rawValue, summary: "Raw stream bytes."),
            FrameKindDescription(name: "streamEnd", code: FrameKind.streamEnd.rawValue, summary: "StreamEnd: total bytes and SHA-256."),
            FrameKindDescription(name: "cancel", code: FrameKind.cancel.rawValue, summary: "Client stops a request; empty payload."),
        ]
    )
}
