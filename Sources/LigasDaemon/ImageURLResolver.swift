import Foundation
import LigasComposition
import LigasDomain
import LigasProtocol

/// Turns the `image` method's arguments into an image URL from ligasd's own data: a league's or
/// team's logo, or a player's photo. Lookups prefer the cache and load feeds only when needed.
struct ImageURLResolver {
    let engine: LigasEngine

    func url(for arguments: ImageArguments) async throws -> URL {
        switch arguments {
        case .url(let url):
            return url
        case .league(let id):
            guard let league = await engine.leagues().value.first(where: { $0.id == id }) else {
                throw LigasError.notFound("no league '\(id)'")
            }
            return league.logoURL
        case .team(let id):
            for league in await engine.leagues().value {
                if let team = try? await engine.teams(league: league.id).value.first(where: { $0.id == id }) {
                    return team.logoURL
                }
            }
            throw LigasError.notFound("no team '\(id)'")
        case .player(let id):
            for league in await engine.leagues().value {
                for team in (try? await engine.teams(league: league.id, policy: .offline).value) ?? [] {
                    guard let player = try? await engine.players(team: team.id, policy: .offline).value
                        .first(where: { $0.id == id }) else { continue }
                    guard let photo = player.photoURL else { throw LigasError.notFound("player '\(id)' has no photo") }
                    return photo
                }
            }
            throw LigasError.notFound("no cached player '\(id)'; load the team's players first")
        }
    }
}
