import Foundation

/// `--key value` pairs from the command line, with the few settings every scenario shares.
struct Options: Sendable {
    let scenario: String
    private let values: [String: String]

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(name: String, arguments: [String]) throws {
        scenario = name
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let key = rest.popFirst() {
            guard key.hasPrefix("--"), let value = rest.popFirst() else {
                throw UsageError(description: "expected --key value pairs, got \(key)")
            }
            values[String(key.dropFirst(2))] = value
        }
        self.values = values
    }

    func string(_ key: String) -> String? { values[key] }

    func int(_ key: String, default fallback: Int) throws -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = Int(text), value >= 0 else { throw UsageError(description: "--\(key) \(text): expected a whole number") }
        return value
    }

    func seconds(_ key: String, default fallback: Double) throws -> Duration {
        guard let text = values[key] else { return .milliseconds(Int64(fallback * 1000)) }
        guard let value = Double(text), value >= 0 else { throw UsageError(description: "--\(key) \(text): expected seconds") }
        return .milliseconds(Int64(value * 1000))
    }

    /// Where this run keeps sockets, caches and logs (scripts/stress passes one per scenario).
    var workDirectory: URL {
        let url = values["work"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("ligas-stress-\(scenario)-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The directory holding `ligasd` (default: beside this executable, as `swift build` puts them).
    var binDirectory: URL {
        values["bin"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    var ligasd: String { binDirectory.appendingPathComponent("ligasd").path }

    /// The bundled sample data, a `ligas-rest` tree (the loopback remotes serve it).
    var sampleData: URL {
        values["sample-data"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../Sources/LigasSampleData/SampleData", isDirectory: true).standardized
    }
}
