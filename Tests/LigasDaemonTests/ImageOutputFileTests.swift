import Foundation
import Glibc
import LigasTestSupport
import Testing

/// What `ligas-client image -o PATH` does to what is at PATH: a regular file is replaced only
/// once the download is complete, through a file of its own; anything else is written in place or
/// refused, and nothing is followed or clobbered that PATH does not name.
@Suite("ligas-client image -o: the output file")
struct ImageOutputFileTests {
    static func download(to path: String, socket: String) async throws -> CommandRun {
        try await CommandRun.client(["image", "--team", "emelec", "-o", path], socket: socket)
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    @Test("An existing file is replaced with the image and keeps its permission bits, not a setuid bit; nothing else is left in its folder")
    func existingFileKeepsItsMode() async throws {
        try await ClientCommandTests.withDaemon { daemon in
            let directory = TemporaryDirectory()
            let file = directory.url.appendingPathComponent("logo.png").path
            let other = directory.url.appendingPathComponent("tool").path
            #expect(FileManager.default.createFile(atPath: file, contents: Data("old".utf8), attributes: [.posixPermissions: 0o600]))
            #expect(FileManager.default.createFile(atPath: other, contents: Data("old".utf8), attributes: [.posixPermissions: 0o4755]))
            for path in [file, other] {
                let run = try await Self.download(to: path, socket: daemon.socketPath)
                #expect(run.status == 0, "\(run.errorOutput)")
                #expect(FileManager.default.contents(atPath: path) == (try ClientCommandTests.emelecLogo))
            }
            #expect(Self.mode(file) == 0o600)
            #expect(Self.mode(other) == 0o755)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["logo.png", "tool"])
        }
    }

    @Test("A symbolic link keeps being a link, and the file it leads to gets the image; a link that leads nowhere is refused (73) and nothing is created")
    func symbolicLinks() async throws {
        try await ClientCommandTests.withDaemon { daemon in
            let directory = TemporaryDirectory()
            let target = directory.url.appendingPathComponent("target.png").path
            #expect(FileManager.default.createFile(atPath: target, contents: Data("old".utf8)))
            let link = directory.url.appendingPathComponent("link.png").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.png")  // relative

            let run = try await Self.download(to: link, socket: daemon.socketPath)
            #expect(run.status == 0, "\(run.errorOutput)")
            #expect(Self.isSymbolicLink(link))
            #expect(FileManager.default.contents(atPath: target) == (try ClientCommandTests.emelecLogo))

            let dangling = directory.url.appendingPathComponent("dangling.png").path
            try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "nothing.png")
            let refused = try await Self.download(to: dangling, socket: daemon.socketPath)
            #expect(refused.status == 73, "\(refused.errorOutput)")
            #expect(refused.errorOutput == "ligas-client: cannot write \(dangling): it is a symbolic link that leads nowhere\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["dangling.png", "link.png", "target.png"])
            #expect(Self.isSymbolicLink(dangling))
        }
    }

    @Test("-o - is stdout, and so is -o /dev/stdout, written through the descriptor, with no JSON after the bytes; -o with an empty name is bad usage")
    func standardOutputAndEmpty() async throws {
        try await ClientCommandTests.withDaemon { daemon in
            for name in ["-", "/dev/stdout", "/dev/fd/1"] {
                let run = try await CommandRun.client(["image", "--team", "emelec", "--json", "-o", name], socket: daemon.socketPath)
                #expect(run.status == 0, "\(name): \(run.errorOutput)")
                #expect(run.output == (try ClientCommandTests.emelecLogo), "\(name)")
            }
            let empty = try await CommandRun.client(["image", "--team", "emelec", "-o", ""], socket: daemon.socketPath)
            #expect(empty.status == 64, "\(empty.errorOutput)")
            #expect(empty.errorOutput.contains("-o takes a file name"))
        }
    }

    @Test("A FIFO is written in place and stays a FIFO")
    func fifoInPlace() async throws {
        try await ClientCommandTests.withDaemon { daemon in
            let directory = TemporaryDirectory()
            let fifo = directory.url.appendingPathComponent("pipe").path
            #expect(mkfifo(fifo, 0o600) == 0)
            // Opening a FIFO to read waits for its writer: on a thread of its own.
            // (Not FileManager: it opens without waiting, reads nothing and is gone before the writer comes.)
            let done = Shared(false)
            let reader = Task {
                await offThePool("fifo-reader") {
                    defer { done.withLock { $0 = true } }
                    return Self.readAll(fifo)
                }
            }
            let run = try await Self.download(to: fifo, socket: daemon.socketPath)
            // Had the client failed before it opened the FIFO, the reader would wait for ever: a
            // writer of our own lets it go, once the reader is in `open` (until then, or once the
            // reader is done, opening the FIFO to write without waiting fails).
            try await waitUntil("the FIFO's reader to be done") {
                if done.withLock({ $0 }) { return true }
                let release = open(fifo, O_WRONLY | O_NONBLOCK)
                if release >= 0 { close(release) }
                return false
            }
            #expect(run.status == 0, "\(run.errorOutput)")
            #expect(await reader.value == (try ClientCommandTests.emelecLogo))
            var status = stat()
            #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        }
    }

    /// Every byte until the writer closes, with blocking reads.
    static func readAll(_ path: String) -> Data? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }

    @Test("A directory, or a folder that does not exist, is refused with exit 73 and its reason, before ligasd is asked")
    func unwritable() async throws {
        try await ClientCommandTests.withDaemon { daemon in
            let directory = TemporaryDirectory()
            let intoDirectory = try await Self.download(to: directory.url.path, socket: daemon.socketPath)
            #expect(intoDirectory.status == 73, "\(intoDirectory.errorOutput)")
            #expect(intoDirectory.errorOutput == "ligas-client: cannot write \(directory.url.path): it is a directory\n")

            let missing = directory.url.appendingPathComponent("no/such/folder.png").path
            let intoNowhere = try await Self.download(to: missing, socket: daemon.socketPath)
            #expect(intoNowhere.status == 73, "\(intoNowhere.errorOutput)")
            #expect(intoNowhere.errorOutput.hasPrefix("ligas-client: cannot write \(missing): No such file or directory (creating \(missing).part-"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)

            let status = try await CommandRun.client(["status", "--json"], socket: daemon.socketPath).jsonObject()
            #expect(status?["requestsServed"] as? Int == 0)
        }
    }

    @Test("Downloads to the same file at once all succeed, and leave the whole image and nothing else")
    func concurrentDownloads() async throws {
        try await ClientCommandTests.withDaemon { daemon in
            let directory = TemporaryDirectory()
            let file = directory.url.appendingPathComponent("logo.png").path
            let runs = try await withThrowingTaskGroup(of: CommandRun.self) { group in
                for _ in 0..<6 { group.addTask { try await Self.download(to: file, socket: daemon.socketPath) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(runs.map(\.status) == Array(repeating: 0, count: 6), "\(runs.map(\.errorOutput))")
            #expect(FileManager.default.contents(atPath: file) == (try ClientCommandTests.emelecLogo))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["logo.png"])
        }
    }
}
