import Foundation
import LigasProtocol
import LigasTestSupport

/// The ways a remote misbehaves, each with the error a client must see when no cache can
/// stand in (`Protocol/PROTOCOL.md` §9, README "Remote contracts").
enum RemoteFault: String, CaseIterable, Sendable {
    /// Nothing listens on the port.
    case down
    case http500 = "500"
    /// Never answers: beyond the daemon's read timeout (10 s, AsyncHTTPClientAdapter.Limits).
    case slow
    case invalidJSON = "invalid-json"
    /// Announces a length, sends part of it, closes.
    case truncated
    /// A chunked body that never ends: past the caps (feeds 4 MiB, images 32 MiB).
    case endless
    /// `Content-Length: 2147483648`.
    case hugeLength = "2gib-length"

    var expectedError: ErrorCode {
        switch self {
        case .down, .slow, .truncated: .connectivity
        case .http500, .invalidJSON, .endless, .hugeLength: .invalidData
        }
    }

    private static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// The faulty answer to `path`; `real` is what a healthy remote would send.
    func reply(path: String, real: Data?) -> LoopbackHTTPServer.Reply {
        let isImage = path.hasSuffix(".png")
        let contentType = isImage ? "image/png" : "application/json"
        let real = real ?? (isImage ? Self.pngSignature + Data(count: 2048) : Data(#"{"teams":[]}"#.utf8))
        switch self {
        case .down, .slow: return .stall
        case .http500: return .status(500, body: Data("internal server error".utf8))
        case .invalidJSON: return .ok(Data(#"{"teams": [{"id": "emelec", "name": "#.utf8), contentType: "application/json")
        case .truncated: return .truncated(real.prefix(max(16, real.count / 4)), declaredLength: real.count, contentType: contentType)
        case .endless:
            let chunk = isImage ? Self.pngSignature + Data(repeating: 0x42, count: 64 << 10) : Data(repeating: 0x20, count: 64 << 10)
            return .endless(chunk: chunk, contentType: contentType)
        case .hugeLength: return .truncated(real.prefix(1024), declaredLength: 2 << 30, contentType: contentType)
        }
    }
}

/// A loopback remote serving the sample data, or failing in one chosen way.
final class FaultRemote: Sendable {
    let server: LoopbackHTTPServer
    private let mode: Shared<RemoteFault?>

    var baseURL: URL { server.baseURL }

    init(sampleData: URL) async throws {
        let mode = Shared<RemoteFault?>(nil)
        self.mode = mode
        let root = sampleData
        server = try await LoopbackHTTPServer.start { path in
            guard let fault = mode.value else { return .file(root: root) }
            return fault.reply(path: path, real: FileManager.default.contents(atPath: root.path + path))
        }
    }

    func fail(_ fault: RemoteFault?) { mode.withLock { $0 = fault } }
}
