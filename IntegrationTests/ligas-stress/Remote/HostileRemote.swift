import Foundation
import LigasTestSupport

/// The remote behind the hostile scenario: the sample data, two big generated images (for
/// streams that take a while), and teams of any league named `slow-*` answered after a pause
/// (for a request that is reliably still in flight).
final class HostileRemote: Sendable {
    let server: LoopbackHTTPServer
    static let bigImage = png(size: 24 << 20, seed: 1)
    static let mediumImage = png(size: 4 << 20, seed: 2)

    var baseURL: URL { server.baseURL }
    var bigImageURL: URL { baseURL.appendingPathComponent("images/hostile/big.png") }
    var mediumImageURL: URL { baseURL.appendingPathComponent("images/hostile/medium.png") }

    init(sampleData: URL, slowAnswer: Duration = .seconds(1)) async throws {
        let root = sampleData
        let teams = FileManager.default.contents(atPath: root.appendingPathComponent("leagues/serie-a/teams.json").path) ?? Data()
        server = try await LoopbackHTTPServer.start { path in
            switch path {
            case "/images/hostile/big.png": return .ok(Self.bigImage, contentType: "image/png")
            case "/images/hostile/medium.png": return .ok(Self.mediumImage, contentType: "image/png")
            case let path where path.hasPrefix("/leagues/slow-"):
                let gate = Gate()
                Task {
                    try? await Task.sleep(for: slowAnswer)
                    gate.open()
                }
                return .gated(gate, then: .ok(teams, contentType: "application/json"))
            default: return .file(root: root)
            }
        }
    }

    static func png(size: Int, seed: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.replaceSubrange(0..<8, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for offset in 8..<size { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 131 &+ seed &* 17 &+ offset >> 9) }
        return Data(bytes)
    }
}
