import Foundation

enum RepositoryPaths {
    /// The repository root, found from this file's location (Tests/LigasProtocolTests/Support).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let vectors = root.appendingPathComponent("Protocol/vectors", isDirectory: true)
    static let protocolSpec = root.appendingPathComponent("Protocol/PROTOCOL.md")
}
