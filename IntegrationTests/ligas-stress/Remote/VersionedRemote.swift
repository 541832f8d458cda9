import Foundation
import LigasTestSupport

/// A loopback `ligas-rest` remote whose every answer carries a version: feeds are the sample
/// data with " ~vN" appended to each name and description, and generated images (under
/// `images/crash/`) embed N after the PNG signature. N counts the requests for that path, so a
/// client can tell whether the cache holds the answer it was given or an older one.
final class VersionedRemote: Sendable {
    let server: LoopbackHTTPServer
    private let versions: Shared<[String: Int]>
    static let imageCount = 30

    var baseURL: URL { server.baseURL }

    init(sampleData: URL) async throws {
        let versions = Shared<[String: Int]>([:])
        self.versions = versions
        let root = sampleData
        server = try await LoopbackHTTPServer.start { path in
            let version = versions.withLock { table in
                table[path, default: 0] += 1
                return table[path]!
            }
            if let index = Self.imageIndex(path: path) {
                return .ok(Self.image(index, version: version), contentType: "image/png")
            }
            guard path.hasSuffix(".json"), let data = FileManager.default.contents(atPath: root.path + path) else {
                return .file(root: root)
            }
            return .ok(Self.versioned(data, version: version), contentType: "application/json")
        }
    }

    func imageURL(_ index: Int) -> URL { baseURL.appendingPathComponent("images/crash/\(index).png") }

    private static let nameOrDescription = try! NSRegularExpression(pattern: #"("(?:name|description)"\s*:\s*"(?:[^"\\]|\\.)*)""#)

    private static func versioned(_ data: Data, version: Int) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let range = NSRange(text.startIndex..., in: text)
        return Data(nameOrDescription.stringByReplacingMatches(in: text, range: range, withTemplate: "$1 ~v\(version)\"").utf8)
    }

    /// The version a feed's text carries ("Emelec ~v12" → 12).
    static func version(of text: String) -> Int? {
        guard let marker = text.range(of: " ~v", options: .backwards) else { return nil }
        return Int(text[marker.upperBound...])
    }

    private static func imageIndex(path: String) -> Int? {
        guard path.hasPrefix("/images/crash/"), path.hasSuffix(".png") else { return nil }
        return Int(path.dropFirst("/images/crash/".count).dropLast(4))
    }

    /// Sizes from 256 KiB to 3 MiB: big enough that saving one takes a while.
    static func imageSize(_ index: Int) -> Int { (256 << 10) * (1 + index % 12) }

    /// PNG signature, the version (8 bytes, big-endian), then a filler only this index makes.
    static func image(_ index: Int, version: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: imageSize(index))
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes.replaceSubrange(0..<8, with: signature)
        for shift in 0..<8 { bytes[8 + shift] = UInt8(truncatingIfNeeded: UInt64(version) >> (56 - 8 * shift)) }
        for offset in 16..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ index &* 7) }
        return Data(bytes)
    }

    /// The version inside image bytes, if the bytes are exactly what `image(_:version:)` made.
    static func version(ofImage bytes: Data, index: Int) -> Int? {
        guard bytes.count == imageSize(index), bytes.count >= 16 else { return nil }
        let version = bytes[bytes.startIndex + 8..<bytes.startIndex + 16].reduce(0) { $0 << 8 | Int($1) }
        return bytes == image(index, version: version) ? version : nil
    }
}
