import FoundationEssentials

/// What an image is asked for by: a URL from ligasd's own data, or the league, team or player
/// whose logo or photo it is.
public enum ImageSubject: Hashable, Sendable {
    case url(URL)
    case league(String)
    case team(String)
    case player(String)
}

extension ImageSubject: CustomStringConvertible {
    public var description: String {
        switch self {
        case .url(let url): "image \(url.absoluteString)"
        case .league(let id): "league '\(id)'"
        case .team(let id): "team '\(id)'"
        case .player(let id): "player '\(id)'"
        }
    }
}
