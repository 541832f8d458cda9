import Foundation

/// Output: progress on stderr, figures as one `STRESS <scenario> key=value ...` line on stdout.
enum Report {
    private static let started = ContinuousClock.now

    static func progress(_ message: String) {
        let start = started  // initialized on first use: the first line reads 0
        let elapsed = ContinuousClock.now - start
        let text = "[" + String(format: "%7.1f", elapsed.seconds) + "s] " + message + "\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func line(_ scenario: String, _ figures: KeyValuePairs<String, String>) {
        line(scenario, figures.map { ($0.key, $0.value) })
    }

    static func line(_ scenario: String, _ figures: [(String, String)]) {
        let fields = figures.map { key, value in
            "\(key)=\(value.contains(" ") || value.isEmpty ? "\"\(value)\"" : value)"
        }
        FileHandle.standardOutput.write(Data(((["STRESS", scenario] + fields).joined(separator: " ") + "\n").utf8))
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", duration.seconds)
    }

    static func mebibytes(kibibytes: Int) -> String {
        String(format: "%.1f", Double(kibibytes) / 1024)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A scenario's figures and the goals it checked. Every missed goal is named, so a failing run
/// says what failed, not only that something did.
struct Goals: Sendable {
    let scenario: String
    private(set) var figures: [(String, String)] = []
    private(set) var missed: [String] = []

    init(_ scenario: String) { self.scenario = scenario }

    var met: Bool { missed.isEmpty }

    mutating func figure(_ key: String, _ value: some CustomStringConvertible) {
        figures.append((key, value.description))
    }

    /// Records `goal` as missed unless `condition` holds.
    mutating func check(_ condition: Bool, _ goal: String) {
        if !condition {
            missed.append(goal)
            Report.progress("GOAL MISSED (\(scenario)): \(goal)")
        }
    }

    func report() {
        var fields = figures
        fields.append(("result", met ? "pass" : "fail"))
        if !met { fields.append(("missed", missed.map { $0.replacingOccurrences(of: " ", with: "_") }.joined(separator: ","))) }
        Report.line(scenario, fields)
    }
}
