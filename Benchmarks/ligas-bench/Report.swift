import Foundation

/// Output: one `RESULT ligasd <test> key=value ...` line per figure (what scripts/bench parses),
/// to stdout; progress to stderr.
enum Report {
    static func result(_ test: String, _ fields: KeyValuePairs<String, CustomStringConvertible>) {
        let text = fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        line("RESULT ligasd \(test) \(text)")
    }

    /// Unbuffered, so a pipe sees each figure as soon as it is measured.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data("\(text)\n".utf8))
    }

    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("ligas-bench: \(text)\n".utf8))
    }

    static func fixed(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// Latency samples in microseconds.
struct Samples {
    private(set) var values: [Double] = []

    init(capacity: Int) { values.reserveCapacity(capacity) }

    mutating func add(since start: ContinuousClock.Instant) {
        values.append(Self.microseconds(ContinuousClock.now - start))
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    var mean: Double { values.reduce(0, +) / Double(max(1, values.count)) }
}
