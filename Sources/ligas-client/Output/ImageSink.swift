import FoundationEssentials
import Glibc
import Synchronization

/// Where an image's bytes go.
///
/// - `-o FILE`, a regular file or none yet: a temporary file of a unique name beside it
///   (`FILE.part-XXXXXX`), created exclusively, so never through a symbolic link left at that
///   name nor shared with another download to the same FILE; renamed over FILE only once the
///   download is complete and checked, so a cancelled or failed one leaves FILE as it was. An
///   existing FILE keeps its permission bits, and when FILE is a symbolic link its target is
///   replaced, not the link.
/// - `-o` naming anything else (`/dev/null`, a FIFO, a terminal's device): written in place, as
///   a stream, never replaced. A directory is refused.
/// - No `-o`: stdout.
final class ImageSink: Sendable {
    private let fd: Int32
    /// Shown in errors: what `-o` said, or "stdout".
    private let name: String
    /// Set when the bytes go to a temporary file that `commit` renames over `target`.
    private let replacing: (temporary: String, target: String)?
    private let closed = Atomic(false)

    init(path: String?) throws(OutputFileError) {
        guard let path else {
            (fd, name, replacing) = (STDOUT_FILENO, "stdout", nil)
            return
        }
        name = path
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists, status.st_mode & S_IFMT != S_IFREG {
            guard status.st_mode & S_IFMT != S_IFDIR else { throw OutputFileError(path: path, reason: "it is a directory") }
            fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .lastError(path) }
            replacing = nil
            return
        }
        let target = try Self.resolvedTarget(path)
        var template = Array("\(target).part-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .lastError(path) }
        let temporary = String(cString: template)
        // mkstemp makes it 0600; the file gets what a new file gets, or what FILE had.
        let mode = exists ? status.st_mode & 0o7777 : 0o666 & ~Self.umask
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0, fchmod(fd, mode) == 0 else {
            let error = OutputFileError.lastError(path)
            close(fd)
            unlink(temporary)
            throw error
        }
        (self.fd, replacing) = (fd, (temporary, target))
    }

    /// `path`, or the file it links to, which need not exist yet (then one link is followed, as
    /// `open` would create its target).
    private static func resolvedTarget(_ path: String) throws(OutputFileError) -> String {
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return path }
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { throw .lastError(path) }
        let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !text.hasPrefix("/") else { return text }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return path.contains("/") ? "\(folder)/\(text)" : text
    }

    /// The process's umask; reading it means setting it, so it is set straight back (before any
    /// other thread of ligas-client creates a file: none does).
    private static var umask: mode_t {
        let mask = Glibc.umask(0o022)
        Glibc.umask(mask)
        return mask
    }

    func write(_ data: Data) throws(OutputFileError) {
        let failure: OutputFileError? = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return .lastError(name) }
                offset += written
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// The download is complete and checked: the file takes its name (or, written in place, is closed).
    func commit() throws(OutputFileError) {
        guard fd != STDOUT_FILENO else { return }
        closed.store(true, ordering: .relaxed)
        guard close(fd) == 0 else { throw .lastError(name) }
        guard let replacing else { return }
        guard rename(replacing.temporary, replacing.target) == 0 else { throw .lastError(name) }
    }

    deinit {
        guard fd != STDOUT_FILENO else { return }
        if !closed.load(ordering: .relaxed) { close(fd) }
        // A cancelled or failed download leaves nothing behind (after a commit there is nothing at
        // that name any more).
        if let replacing { unlink(replacing.temporary) }
    }
}

/// The file `-o` names cannot be written: ligas-client exits 73 (sysexits' `EX_CANTCREAT`).
struct OutputFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot write \(path): \(reason)" }

    static func lastError(_ path: String) -> OutputFileError {
        OutputFileError(path: path, reason: String(cString: strerror(errno)))
    }
}
