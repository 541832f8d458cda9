import Foundation
import Testing
@testable import LigasProtocol

@Suite("Describe")
struct DescribeTests {
    let description = InterfaceDescription.ligas

    @Test("lists every method, error code and frame kind")
    func completeness() {
        #expect(description.methods.map(\.name) == Methods.all.map { $0.name })
        #expect(description.errors.map(\.code) == ErrorCode.known.map(\.code.rawValue))
        #expect(description.frameKinds.map(\.name) == FrameKind.allCases.map(\.description))
        #expect(description.frameKinds.map(\.code) == FrameKind.allCases.map(\.rawValue))
        #expect(description.methods.filter(\.streams).map(\.name) == ["image"])
    }

    @Test("every type it mentions is defined or primitive")
    func typesResolve() {
        let primitives: Set = ["text", "uint", "int", "bool", "bytes", "url", "date", "map", "map<text,text>"]
        let defined = Set(description.types.map(\.name))
        func resolves(_ type: String) -> Bool {
            let bare = type.hasPrefix("[") && type.hasSuffix("]") ? String(type.dropFirst().dropLast()) : type
            return primitives.contains(bare) || defined.contains(bare)
        }
        for method in description.methods {
            #expect(resolves(method.result), "\(method.name) result \(method.result)")
            if let arguments = method.arguments { #expect(resolves(arguments), "\(method.name) args \(arguments)") }
        }
        for type in description.types {
            for field in (type.fields ?? []) + (type.oneOf ?? []) {
                #expect(resolves(field.type), "\(type.name).\(field.name): \(field.type)")
            }
        }
    }

    /// Samples with every optional field present, by described type name.
    static func samples() -> [(String, any Encodable)] {
        [
            ("Hello", Sample.clientHello),
            ("Request", Request(Methods.Teams.self, TeamsArguments(league: "l"), deadlineMs: 5, cache: .refresh)),
            ("TeamsArguments", TeamsArguments(league: "l")),
            ("PlayersArguments", PlayersArguments(team: "t")),
            ("MatchesArguments", MatchesArguments(league: "l", team: "t")),
            ("PingResult", PingResult()),
            ("LeaguesResult", LeaguesResult(source: .cache, value: Sample.leagues)),
            ("TeamsResult", TeamsResult(source: .cache, value: Sample.teams)),
            ("PlayersResult", PlayersResult(source: .cache, value: Sample.players)),
            ("MatchesResult", MatchesResult(source: .cache, value: Sample.matches)),
            ("StandingsArguments", StandingsArguments(league: "l")),
            ("StandingsResult", StandingsResult(source: .cache, value: Sample.standings)),
            ("Standing", Sample.standings[0]),
            ("League", Sample.leagues[0]),
            ("Team", Sample.teams[0]),
            ("Player", Sample.players[1]),
            ("Match", Sample.matches.upcoming[0]),
            ("PreviousMatch", Sample.matchesWithScores.previous[0]),
            ("Matches", Sample.matches),
            ("StreamHeader", StreamHeader(contentType: "image/png", totalSize: 1, source: .cache)),
            ("StreamEnd", StreamEnd(totalBytes: 68, sha256: Sample.pngSHA256)),
            ("DaemonStatus", Sample.statusWithQuota),
            ("ProviderQuota", Sample.statusWithQuota.quota![0]),
            ("ErrorBody", ErrorBody(code: .internal, message: "m", details: ["k": "v"])),
            ("InterfaceDescription", InterfaceDescription.ligas),
        ]
    }

    @Test("the fields of each described map type are exactly the keys its encoding has")
    func fieldsMatchEncodings() throws {
        let samples = Self.samples()
        let mapTypes = description.types.filter { $0.kind == .map }
        #expect(Set(mapTypes.map(\.name)) == Set(samples.map(\.0)))
        for (name, sample) in samples {
            let type = try #require(mapTypes.first { $0.name == name })
            let encoded = try CBORItem.parse(CBOREncoder().encode(sample))
            guard case .map(let pairs) = encoded else {
                Issue.record("\(name) is not a map")
                continue
            }
            let keys = Set(pairs.compactMap { pair -> String? in
                if case .text(let key) = pair.key { return key }
                return nil
            })
            #expect(keys == Set((type.fields ?? []).map(\.name)), "\(name)")
        }
    }

    @Test("enumerations list exactly the texts the types accept")
    func enumerations() {
        let enums = Dictionary(uniqueKeysWithValues: description.types.filter { $0.kind == .enum }.map { ($0.name, $0.values ?? []) })
        #expect(enums["CachePolicy"] == ["default", "refresh", "offline"])
        #expect(enums["ResultSource"] == ["cache", "remote", "builtIn"])
        #expect(enums["Position"] == ["coach", "goalkeeper", "defender", "midfielder", "forward"])
    }
}
