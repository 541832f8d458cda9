import Foundation
import LigasDomain

public enum Fixtures {
    public static let base = URL(string: "https://ligas.test/")!

    public static func team(_ id: String = "barcelona-sc", name: String? = nil) -> Team {
        Team(
            id: id, name: name ?? id.capitalized,
            logoURL: base.appendingPathComponent("images/teams/\(id).png"), dataSource: .ligasREST)
    }

    public static func teams(_ ids: String...) -> [Team] { ids.map { team($0) } }

    public static func player(_ id: String = "barcelona-sc-01", number: Int? = 1) -> Player {
        Player(
            id: id, name: "Jugador \(id)", photoURL: nil, number: number,
            position: .goalkeeper, nationality: "Ecuador", dataSource: .ligasREST)
    }

    public static func matches(previous: Int = 1, upcoming: Int = 1) -> Matches {
        let date = Date(timeIntervalSince1970: 1_740_000_000)
        return Matches(
            previous: (0..<previous).map { index in
                PreviousMatch(
                    match: Match(date: date.addingTimeInterval(Double(index) * 86_400), description: "Emelec vs. Aucas", home: "Emelec", away: "Aucas"),
                    winner: "Emelec", highlightsURL: URL(string: "https://highlights.test/\(index).mp4")!)
            },
            upcoming: (0..<upcoming).map { index in
                Match(date: date.addingTimeInterval(Double(index + 30) * 86_400), description: "Aucas vs. Delfín", home: "Aucas", away: "Delfín")
            })
    }

    /// A real 1x1 PNG.
    public static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])

    public static func pngImage(size: Int) -> Data {
        var data = png
        data.append(Data(repeating: 0xAB, count: max(0, size - png.count)))
        return data
    }

    public struct AnyError: Error, Hashable, CustomStringConvertible {
        public let description: String
        public init(_ description: String = "any error") { self.description = description }
    }
}
