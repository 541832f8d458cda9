import Foundation
import LigasSystemd

// `UnixSocket` itself lives in LigasTestSupport, shared with the end-to-end tests.

/// A pipe whose write end a handler writes to, read back by the test once the write end is closed.
final class CapturePipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemdError("pipe", errno: errno) }
        readEnd = fds[0]
        writeEnd = fds[1]
        // Not inherited by the processes other tests spawn, which would keep the write end open.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    deinit {
        close(readEnd)
        closeWriteEnd()
    }

    func closeWriteEnd() {
        if writeEnd >= 0 { close(writeEnd) }
        writeEnd = -1
    }

    /// Everything written, once every writer is done (closes the write end, reads to EOF).
    func readAll() -> String {
        closeWriteEnd()
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(readEnd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data.append(contentsOf: buffer[..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
