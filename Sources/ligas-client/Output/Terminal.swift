import FoundationEssentials
import Glibc

/// One of the process's standard streams, and what it is connected to.
struct Terminal: Sendable {
    let fd: Int32

    static let standardOutput = Terminal(fd: STDOUT_FILENO)
    static let standardError = Terminal(fd: STDERR_FILENO)

    var isTerminal: Bool { isatty(fd) == 1 }

    /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    var usesColour: Bool {
        isTerminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    func write(_ text: String) {
        write(Data(text.utf8))
    }

    func write(_ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
