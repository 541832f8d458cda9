import LigasProtocol

/// The requests a connection sent lately, by their payload's bytes: a request sent again (a
/// client asking the same thing again, as tools and widgets do) is not decoded again. Decoding
/// even a small request through `Codable` was a quarter of a cached answer's instructions in
/// ligasd (callgrind). Owned by one connection, on its queue.
struct DecodedRequests {
    private var entries: [[UInt8]: Request] = [:]
    /// More different requests than a client usually sends; past it, start afresh. With the
    /// size below, a connection holds at most a few KiB here, whatever it sends.
    static let capacity = 16
    /// Larger payloads are decoded every time (a request of the methods' arguments is far smaller).
    static let largestRemembered = 256
    /// Payloads decoded (not found among the remembered ones), for tests.
    private(set) var decodeCount = 0

    /// The request a `request` frame's payload holds; a payload that does not decode throws the
    /// error to answer it with, each time (it is never remembered).
    mutating func request(from payload: [UInt8]) throws(ErrorBody) -> Request {
        if let request = entries[payload] { return request }
        decodeCount += 1
        let request = try Request.decode(from: payload)
        if payload.count <= Self.largestRemembered {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[payload] = request
        }
        return request
    }
}
