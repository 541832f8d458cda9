import Foundation
import LigasProtocol

extension TeamsResult {
    /// A cached answer of teams with these ids (and names), for the tests of what is kept.
    static func named(_ names: [String]) -> TeamsResult {
        TeamsResult(source: .cache, value: names.map {
            Team(id: $0, name: $0, logoURL: URL(string: "https://x.test/\($0).png")!, dataSource: "test")
        })
    }
}
