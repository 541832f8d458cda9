import Glibc

/// A progress bar on stderr, only when stderr is a terminal.
final class ProgressBar {
    private let total: UInt64?
    private var done: UInt64 = 0
    private let enabled = Terminal.standardError.isTerminal

    init(total: UInt64?) { self.total = total }

    func advance(by count: Int) {
        done += UInt64(count)
        guard enabled else { return }
        if let total, total > 0 {
            let filled = Int(min(done, total) * 30 / total)
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
            Terminal.standardError.write("\r[\(bar)] \(done * 100 / total)% \(done / 1024) KiB")
        } else {
            Terminal.standardError.write("\r\(done / 1024) KiB")
        }
    }

    func finish() {
        if enabled { Terminal.standardError.write("\n") }
    }
}
