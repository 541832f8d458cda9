import FoundationEssentials
import Glibc
import Synchronization

/// Where an image's bytes go.
///
/// - `-o FILE`, a regular file or none yet: a new file of a unique name beside it
///   (`FILE.part-XXXXXXXX`), created exclusively, so never through a symbolic link left at that
///   name nor shared with another download to the same FILE, and renamed over FILE only once the
///   download is complete, checked and synced, so a cancelled or failed one leaves FILE as it
///   was. A FILE that exists must be one this user may write (the kernel is asked, by opening it
///   for writing without truncating it: permissions, and `fs.protected_symlinks` for a link on
///   the way), and keeps its permission bits; it is replaced as `mv` replaces a file (a hard link
///   to it keeps the old bytes), and when FILE is a symbolic link the file it leads to is
///   replaced, not the link. A link that leads nowhere is refused.
/// - `-o` naming the file stdout or stderr already is (`/dev/stdout`, `/dev/fd/2`, or the file
///   a redirection opened): written through that descriptor, as the shell opened it.
/// - `-o` naming anything else (`/dev/null`, a FIFO): written in place, as a stream. A directory,
///   or a terminal, is refused.
/// - Nil (no `-o`, or `-o -`): stdout.
final class ImageSink: Sendable {
    private enum Destination {
        /// Stdout or stderr, written as they are and never closed here.
        case standard(Int32)
        /// Opened here and written as it is (a device, a FIFO).
        case inPlace(fd: Int32)
        /// A new file renamed over `target` when complete.
        case replacing(fd: Int32, temporary: String, target: String)
    }

    private let destination: Destination
    /// Shown in errors: what `-o` said, or "stdout".
    private let name: String
    /// Set when `commit` begins: from then on it, not `deinit`, closes and cleans up.
    private let committing = Atomic(false)

    init(path: String?) throws(OutputFileError) {
        guard let path else {
            (destination, name) = (.standard(STDOUT_FILENO), "stdout")
            return
        }
        name = path
        destination = try Self.open(path)
    }

    /// Whether the bytes go to stdout (where nothing else may then be printed).
    var isStandardOutput: Bool {
        if case .standard(STDOUT_FILENO) = destination { true } else { false }
    }

    private static func open(_ path: String) throws(OutputFileError) -> Destination {
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw .lastError(path) }
            var link = stat()
            if lstat(path, &link) == 0 { throw OutputFileError(path: path, reason: "it is a symbolic link that leads nowhere") }
            return try replacing(target: path, existing: nil, shownAs: path)
        }
        for standard in [STDOUT_FILENO, STDERR_FILENO] where isSameFile(standard, status) {
            guard isatty(standard) == 0 else { throw .terminal(path) }
            return .standard(standard)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw OutputFileError(path: path, reason: "it is a directory")
        case S_IFREG:
            let probe = Glibc.open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard probe >= 0 else { throw .lastError(path) }
            close(probe)
            guard let resolved = realpath(path, nil) else { throw .lastError(path) }
            defer { free(resolved) }
            return try replacing(target: String(cString: resolved), existing: status.st_mode & 0o777, shownAs: path)
        default:
            let fd = Glibc.open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { throw .lastError(path) }
            guard isatty(fd) == 0 else {
                close(fd)
                throw .terminal(path)
            }
            return .inPlace(fd: fd)
        }
    }

    /// Whether descriptor `fd` is open on the file `status` describes.
    private static func isSameFile(_ fd: Int32, _ status: stat) -> Bool {
        var open = stat()
        return fstat(fd, &open) == 0 && open.st_dev == status.st_dev && open.st_ino == status.st_ino
    }

    /// A new file beside `target`, for `rename` to put in its place; with `existing`'s permission
    /// bits, else a new file's (`0666` less the umask, or what a default ACL says).
    private static func replacing(target: String, existing mode: mode_t?, shownAs path: String) throws(OutputFileError) -> Destination {
        while true {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let temporary = "\(target).part-\(String(repeating: "0", count: 8 - suffix.count))\(suffix)"
            let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0o666)
            if fd < 0, errno == EEXIST { continue }
            guard fd >= 0 else { throw .lastError(path, while: "creating \(temporary)") }
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
        case .standard(let fd), .inPlace(let fd), .replacing(let fd, _, _): fd
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

    /// The download is complete and checked: the new file, synced, takes FILE's place (or, written
    /// in place, is closed).
    func commit() throws(OutputFileError) {
        committing.store(true, ordering: .relaxed)
        switch destination {
        case .standard:
            return
        case .inPlace(let fd):
            guard close(fd) == 0 else { throw .lastError(name) }
        case .replacing(let fd, let temporary, let target):
            // Synced first: after a crash FILE is the old file or the whole new one, never empty.
            let synced = fsync(fd) == 0
            let syncFailure = synced ? nil : OutputFileError.lastError(name)
            guard close(fd) == 0, synced, rename(temporary, target) == 0 else {
                let failure = syncFailure ?? .lastError(name)
                unlink(temporary)
                throw failure
            }
        }
    }

    deinit {
        guard !committing.load(ordering: .relaxed) else { return }
        switch destination {
        case .standard: break
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

    /// `errno`'s text, and what was being done when it is not writing `path` itself.
    static func lastError(_ path: String, while doing: String? = nil) -> OutputFileError {
        let text = String(cString: strerror(errno))
        return OutputFileError(path: path, reason: doing.map { "\(text) (\($0))" } ?? text)
    }

    static func terminal(_ path: String) -> OutputFileError {
        OutputFileError(path: path, reason: "it is a terminal, which image bytes are never written to")
    }
}
