import FoundationEssentials
import LigasDomain

extension LigasEngine {
    /// Use case "Load image data" for a league's or team's logo or a player's photo.
    ///
    /// Finding the URL follows the caller's policy like any load: the cache is searched first;
    /// only then, and never under `offline`, are the feeds that can hold it loaded (`default`
    /// policy for them: `refresh` renews the image, not the lists that lead to it). The search
    /// stops at the first match, so a player's photo loads squads only until it is found.
    public func image(of subject: ImageSubject, policy: LoadPolicy = .default) async throws -> Loaded<ImageStream> {
        try await image(url: imageURL(of: subject, policy: policy), policy: policy)
    }

    func imageURL(of subject: ImageSubject, policy: LoadPolicy) async throws -> URL {
        if case .url(let url) = subject { return url }
        let passes: [LoadPolicy] = policy == .offline ? [.offline] : [.offline, .default]
        var search = Search()
        for pass in passes {
            search = Search()  // only the last pass's failures explain a miss
            if let url = try await imageURL(of: subject, in: pass, search: &search) { return url }
        }
        throw search.unreadable ?? LigasError.notFound("no \(subject)")
    }

    /// The URL `imageURL` would find first, when the lists on the way are all decoded in memory
    /// (its cache pass, told synchronously); nil means "ask `imageURL`".
    func imageURLFromMemory(of subject: ImageSubject) -> URL? {
        if case .url(let url) = subject { return url }
        guard let leagues = leaguesNow(policy: .offline)?.value else { return nil }
        switch subject {
        case .url:
            return nil  // answered above
        case .league(let id):
            return leagues.first { $0.id == id }?.logoURL
        case .team(let id):
            for league in leagues {
                guard let teams = teamsNow(league: league.id, policy: .offline)?.value else { return nil }
                if let team = teams.first(where: { $0.id == id }) { return team.logoURL }
            }
        case .player(let id):
            for league in leagues {
                guard let teams = teamsNow(league: league.id, policy: .offline)?.value else { return nil }
                for team in teams {
                    guard let players = playersNow(team: team.id, policy: .offline)?.value else { return nil }
                    if let player = players.first(where: { $0.id == id }) { return player.photoURL }
                }
            }
        }
        return nil
    }

    private func imageURL(of subject: ImageSubject, in pass: LoadPolicy, search: inout Search) async throws -> URL? {
        let leagues = await leagues(policy: pass).value
        switch subject {
        case .url(let url):
            return url
        case .league(let id):
            return leagues.first { $0.id == id }?.logoURL
        case .team(let id):
            for league in leagues {
                let teams = await search.attempt { try await self.teams(league: league.id, policy: pass).value }
                if let team = teams?.first(where: { $0.id == id }) { return team.logoURL }
            }
        case .player(let id):
            for league in leagues {
                for team in await search.attempt({ try await self.teams(league: league.id, policy: pass).value }) ?? [] {
                    let players = await search.attempt { try await self.players(team: team.id, policy: pass).value }
                    guard let player = players?.first(where: { $0.id == id }) else { continue }
                    guard let photo = player.photoURL else { throw LigasError.notFound("player '\(id)' has no photo") }
                    return photo
                }
            }
        }
        try Task.checkCancellation()
        return nil
    }
}

/// A search through lists that may fail to load. A list that does not exist (`notFound`) just
/// holds nothing; one that could not be read (`noCache` offline, `connectivity`, `invalidData`)
/// means the subject may be there: its error is the honest answer to a miss.
private struct Search {
    private(set) var unreadable: (any Error)?

    mutating func attempt<T>(_ load: () async throws -> T) async -> T? {
        do {
            return try await load()
        } catch LigasError.notFound {
            return nil
        } catch {
            if unreadable == nil { unreadable = error }
            return nil
        }
    }
}
