import FoundationEssentials
import LigasDomain
import LigasRemote
import Synchronization

/// The image URLs the daemon may fetch: the http(s) ones that appear in its own data (league,
/// team and player records it has loaded or cached), and any that lie beneath a configured
/// source. A client can never make the daemon fetch an arbitrary URL, and a remote's data cannot
/// make it read a local file: a `file:` URL is fetched only beneath a `file:` source.
///
/// A mutex rather than an actor: it is consulted on every data request, and a hop to another
/// executor would cost more than the set operation itself.
final class KnownImageURLs: Sendable {
    private let urls = Mutex<Set<URL>>([])
    private let bases: [String]

    init(sourceBaseURLs: [URL]) {
        bases = sourceBaseURLs.map { $0.absoluteString }
    }

    func record(_ newURLs: some Sequence<URL>) {
        let newURLs = newURLs.filter(\.isWeb)
        urls.withLock { $0.formUnion(newURLs) }
    }

    func contains(_ url: URL) -> Bool {
        if urls.withLock({ $0.contains(url) }) { return true }
        let text = url.absoluteString
        // Dot segments could climb out of a base, as could what some servers read as one (`..;`
        // in Tomcat) or an escaped dot or slash: such URLs are never ours.
        let lowered = text.lowercased()
        guard !url.pathComponents.contains(where: { $0.hasPrefix("..") }),
            !["%2e", "%2f", "%5c"].contains(where: lowered.contains)
        else { return false }
        return bases.contains { text.hasPrefix($0) }
    }
}
