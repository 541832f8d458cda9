import Foundation
import Synchronization

/// A fresh directory under the system temp dir, removed when the value is released (unless kept).
public final class TemporaryDirectory: Sendable {
    public let url: URL
    private let kept = Atomic(false)

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ligas-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Leaves the directory in place when the value goes (for whoever reads the logs in it).
    public func keep() {
        kept.store(true, ordering: .relaxed)
    }

    deinit {
        if !kept.load(ordering: .relaxed) { try? FileManager.default.removeItem(at: url) }
    }
}
