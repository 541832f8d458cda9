import FoundationEssentials
import Glibc
import Synchronization

/// Where an image's bytes go.
///
/// - `-o FILE`, a regular file or none yet: a new file of a unique name beside it
///   (`FILE.part-XXXXXX`), created exclusively, so never through a symbolic link left at that
///   name nor shared with another download to the same FILE, and renamed over FILE only once the
///   download is complete and checked, so a cancelled or failed one leaves FILE as it was. A
///   FILE that exists must be writable, and keeps its permission bits; it is replaced as `mv`
///   replaces a file (a hard link to it keeps the old bytes). When FILE is a symbolic link, the
///   kernel resolves it (so `fs.protected_symlinks` applies) and the file it leads to is replaced;
///   a link that leads nowhere is refused.
/// - `-o` naming anything else (`/dev/null`, a FIFO, a terminal's device), or a descriptor
///   (`/dev/fd/N`, `/dev/stderr`, `/proc/…/fd/N`, whatever it leads to): written in place, as a
///   stream, appended to, never replaced. A directory is refused.
/// - Nil (no `-o`, or `-o -`): stdout.
final class ImageSink: Sendable {
    private enum Destination {
        case standardOutput
        /// Written to as it is (a device, a FIFO).
        case inPlace(fd: Int32)
        /// A new file renamed over `target` when complete.
        case replacing(fd: Int32, temporary: String, target: String)
    }

    private let destination: Destination
    /// Shown in errors: what `-o` said, or "stdout".
    private let name: String

    init(path: String?) throws(OutputFileError) {
        guard let path else {
            (destination, name) = (.standardOutput, "stdout")
            return
        }
        name = path
        destination = try Self.open(path)
    }

    /// Linux's `O_PATH` (octal 010000000 on every architecture Swift runs on here), which Glibc's
    /// module hides behind `_GNU_SOURCE`: a descriptor that only names a file.
    private static let pathOnly: Int32 = 0o10000000

    private static func open(_ path: String) throws(OutputFileError) -> Destination {
        // Resolved by the kernel, every link of a chain, as `open` resolves them.
        let resolving = Glibc.open(path, Self.pathOnly | O_CLOEXEC)
        guard resolving >= 0 else {
            guard errno == ENOENT else { throw .lastError(path) }
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                throw OutputFileError(path: path, reason: "it is a symbolic link that leads nowhere")
            }
            return try replacing(target: path, existing: nil, shownAs: path)  // no such file yet
        }
        defer { close(resolving) }
        var status = stat()
        guard fstat(resolving, &status) == 0 else { throw .lastError(path) }
        // A descriptor's name stands for the open file, not for a file to replace (`2>>log`).
        let namesDescriptor = ["/dev/fd/", "/dev/std", "/proc/"].contains { path.hasPrefix($0) }
        switch status.st_mode & S_IFMT {
        case S_IFREG where !namesDescriptor:
            let target = try resolvedPath(of: resolving, shownAs: path)
            guard access(target, W_OK) == 0 else { throw .lastError(path) }
            return try replacing(target: target, existing: status.st_mode & 0o777, shownAs: path)
        case S_IFDIR:
            throw OutputFileError(path: path, reason: "it is a directory")
        default:
            let fd = Glibc.open("/proc/self/fd/\(resolving)", O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { throw .lastError(path) }
            return .inPlace(fd: fd)
        }
    }

    /// The path the kernel resolved `fd` (an `O_PATH` descriptor) to.
    private static func resolvedPath(of fd: Int32, shownAs path: String) throws(OutputFileError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { throw .lastError(path) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A new file beside `target`, for `rename` to put in its place; with `existing`'s permission
    /// bits, else a new file's (`0666` less the umask, or what a default ACL says).
    private static func replacing(target: String, existing mode: mode_t?, shownAs path: String) throws(OutputFileError) -> Destination {
        while true {
            let temporary = "\(target).part-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd < 0, errno == EEXIST { continue }
            guard fd >= 0 else { throw .lastError(path) }
            if let mode, fchmod(fd, mode) != 0 {
                let failure = OutputFileError.lastError(path)
                close(fd)
                unlink(temporary)
                throw failure
            }
            return .replacing(fd: fd, temporary: temporary, target: target)
        }
    }

    private var fd: Int32 {
        switch destination {
        case .standardOutput: STDOUT_FILENO
        case .inPlace(let fd), .replacing(let fd, _, _): fd
        }
    }

    func write(_ data: Data) throws(OutputFileError) {
        let failure: OutputFileError? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                if written == 0 { return OutputFileError(path: name, reason: "it takes no more bytes") }
                guard written > 0 else { return .lastError(name) }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The download is complete and checked: the new file takes FILE's place (or, written in
    /// place, is closed).
    func commit() throws(OutputFileError) {
        switch destination {
        case .standardOutput:
            return
        case .inPlace(let fd):
            guard close(fd) == 0 else { throw .lastError(name) }
        case .replacing(let fd, let temporary, let target):
            guard close(fd) == 0, rename(temporary, target) == 0 else {
                let failure = OutputFileError.lastError(name)
                unlink(temporary)
                throw failure
            }
        }
        committed.store(true, ordering: .relaxed)
    }

    /// Set once `commit` closed the file.
    private let committed = Atomic(false)

    deinit {
        guard !committed.load(ordering: .relaxed) else { return }
        switch destination {
        case .standardOutput: break
        case .inPlace(let fd): close(fd)
        case .replacing(let fd, let temporary, _):
            close(fd)
            unlink(temporary)  // a cancelled or failed download leaves nothing behind
        }
    }
}

/// The image cannot be written where it goes (the `-o` file, or stdout): ligas-client exits 73
/// (sysexits' `EX_CANTCREAT`).
struct OutputFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot write \(path): \(reason)" }

    static func lastError(_ path: String) -> OutputFileError {
        OutputFileError(path: path, reason: String(cString: strerror(errno)))
    }
}
