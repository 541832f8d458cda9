import FoundationEssentials

/// One redirect, followed by hand rather than by AsyncHTTPClient: at another origin, AsyncHTTPClient
/// drops `Authorization` and cookies but keeps every other header, and the providers' keys travel
/// in `x-rapidapi-key` and `X-API-Key`. A redirect to another host, or from https to http, would
/// hand the key to whoever that is.
struct RedirectStep: Equatable {
    let url: URL
    let headers: [String: String]

    /// The statuses that send a GET elsewhere (304 and 305 do not: nothing to follow).
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The only header a request keeps at another origin; the others ligasd sends (an API key,
    /// RapidAPI's host) are meant for the origin of the URL it asked for.
    static let headersKeptAcrossOrigins: Set<String> = ["accept"]

    /// Where a GET of `url` with `headers` goes next, when it was answered `status` with
    /// `location`; nil when that answer is not a redirect, or one to a scheme other than http(s).
    static func next(after url: URL, headers: [String: String], status: Int, location: String?) -> RedirectStep? {
        guard statuses.contains(status), let location, !location.isEmpty,
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            target.isWeb, target.host != nil
        else { return nil }
        let kept = sameOrigin(url, target) ? headers : headers.filter { headersKeptAcrossOrigins.contains($0.key.lowercased()) }
        return RedirectStep(url: target, headers: kept)
    }

    /// RFC 6454's origin: scheme, host and port (the scheme's default when none is written).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.portOrDefault == b.portOrDefault
    }
}
