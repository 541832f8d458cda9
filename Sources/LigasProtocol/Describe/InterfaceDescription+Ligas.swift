/// The interface this library implements, as `describe` returns it: read off the method
/// table and the wire types' Codable declarations (see `SchemaBook`), not written out again.
extension InterfaceDescription {
    public static let ligas: InterfaceDescription = {
        let book = SchemaBook()
        _ = book.expression(of: Hello.self)
        _ = book.expression(of: Request.self)
        let methods = Methods.all.map { describe($0, in: book) }
        _ = book.expression(of: StreamEnd.self)
        _ = book.expression(of: ErrorBody.self)
        return InterfaceDescription(
            name: "ligas",
            protocolVersion: ProtocolVersion.current,
            methods: methods,
            types: inStableOrder(book.types),
            errors: ErrorCode.known.map { ErrorDescription(code: $0.code.rawValue, summary: $0.summary) },
            frameKinds: FrameKind.allCases.map { FrameKindDescription(name: "\($0)", code: $0.rawValue, summary: $0.summary) }
        )
    }()

    private static func describe<M: RPCMethod>(_ method: M.Type, in book: SchemaBook) -> MethodDescription {
        let arguments = M.takesArguments ? book.expression(of: M.Arguments.self).text : nil
        // A `Sourced` result is named after its method: `teams` answers a `TeamsResult`.
        let resultName = M.Result.self is any SourcedResult.Type ? M.name.prefix(1).uppercased() + M.name.dropFirst() + "Result" : nil
        let result = book.expression(of: M.Result.self, named: resultName).text
        return MethodDescription(name: M.name, summary: M.summary, arguments: arguments, result: result, streams: M.streams)
    }

    /// Protocol version 1 listed its types in this order; keeping it keeps `describe`'s bytes
    /// (and its golden vector) stable. Types added later follow in the order they are met.
    private static let version1Order = [
        "Hello", "Request", "CachePolicy", "TeamsArguments", "PlayersArguments", "MatchesArguments",
        "ImageArguments", "ResultSource", "PingResult", "LeaguesResult", "TeamsResult", "PlayersResult",
        "MatchesResult", "League", "Team", "Player", "Position", "Match", "PreviousMatch", "Matches",
        "StreamHeader", "StreamEnd", "DaemonStatus", "ErrorBody", "InterfaceDescription",
    ]

    /// `sorted` is stable: newer types keep the order they were met in, after these.
    private static func inStableOrder(_ types: [TypeDescription]) -> [TypeDescription] {
        types.sorted { (version1Order.firstIndex(of: $0.name) ?? .max) < (version1Order.firstIndex(of: $1.name) ?? .max) }
    }
}

/// Marks `Sourced`, whose generic name says nothing on the wire.
protocol SourcedResult {}
extension Sourced: SourcedResult {}

extension MethodDescription: DescribedAsMap {}
extension TypeDescription: DescribedAsMap {}
extension ErrorDescription: DescribedAsMap {}
extension FrameKindDescription: DescribedAsMap {}
