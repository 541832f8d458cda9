import Foundation

/// A `seed-football-api` source in the shapes of that contract, for a `LoopbackHTTPServer`.
public enum SeedFootballAPI {
    public static let teams = Data(#"{"teams":[{"id":"red-dragons","name":"Team Red Dragons","logo":"logos/red-dragons.png"},{"id":"cool-eagles","name":"Team Cool Eagles","logo":"logos/cool-eagles.png"}]}"#.utf8)
    public static let matches = Data(#"{"matches":{"previous":[{"date":"2022-04-23T18:00:00.000Z","description":"Team Cool Eagles vs. Team Red Dragons","home":"Team Cool Eagles","away":"Team Red Dragons","winner":"Team Red Dragons","highlights":"https://seed.test/highlights.mp4"}],"upcoming":[{"date":"2027-08-13T20:00:00.000Z","description":"Team Red Dragons vs. Team Cool Eagles","home":"Team Red Dragons","away":"Team Cool Eagles"}]}}"#.utf8)

    /// `GET /teams`, `GET /teams/matches`, and a PNG for any `.png`; 404 otherwise.
    @Sendable public static func route(_ path: String) -> LoopbackHTTPServer.Reply {
        switch path {
        case "/teams": .ok(teams, contentType: "application/json")
        case "/teams/matches": .ok(matches, contentType: "application/json")
        case _ where path.hasSuffix(".png"): .ok(Fixtures.png, contentType: "image/png")
        default: .status(404)
        }
    }
}
