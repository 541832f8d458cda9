import Dispatch
import Foundation
import Glibc
import Synchronization

/// Processes started with posix_spawn and reaped with waitpid on a Dispatch thread.
///
/// Foundation's `Process` sometimes never notices a child's exit when other children (a
/// `systemd --user` manager) are around, leaving it a zombie and `isRunning` true forever.
public final class SpawnedProcess: Sendable {
    public let pid: pid_t
    private let exit = Gate()
    private let status = Counter()

    init(pid: pid_t) {
        self.pid = pid
        // A queue of its own: `waitpid` blocks for the child's whole life (see `offThePool`).
        DispatchQueue(label: "ligas-test-waitpid-\(pid)").async { [exit, status] in
            status.add(Int(Self.waitForStatus(of: pid)))
            exit.open()
        }
    }

    /// Waits for the child `pid` to exit and reaps it: its exit status (0–255), or minus the number
    /// of the signal that ended it. Not the shell's 128 + the number: a program that exits 130 on
    /// Ctrl-C (ligas-client) must not pass for one that SIGINT killed.
    public static func waitForStatus(of pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        return (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : -(raw & 0x7F)
    }

    /// Waits for the exit; returns the exit status (minus the signal's number when killed).
    public func waitForExit() async -> Int32 {
        await exit.wait()
        return Int32(status.total)
    }

    public var hasExited: Bool { exit.isOpen }

    /// SIGTERM, then SIGKILL if it is still there after `grace`.
    public func terminate(grace: Duration = .seconds(10)) async {
        kill(pid, SIGTERM)
        _ = try? await poll("exit after SIGTERM", timeout: grace, every: .milliseconds(10)) { hasExited ? () : nil }
        if !hasExited { kill(pid, SIGKILL) }
        _ = await waitForExit()
    }
}

public enum Spawn {
    /// Starts `path` with `arguments`, its stdin /dev/null; stdout goes to `output` (or /dev/null),
    /// or to the descriptor `outputDescriptor` (the write end of a pipe, say) when given; stderr
    /// goes with stdout unless `errors` names a file of its own (for output that is parsed).
    public static func start(
        _ path: String, _ arguments: [String], environment: [String: String], output: URL? = nil,
        outputDescriptor: Int32? = nil, errors: URL? = nil
    ) throws -> SpawnedProcess {
        SpawnedProcess(
            pid: try spawn(path, arguments, environment: environment, output: output, outputDescriptor: outputDescriptor, errors: errors))
    }

    /// Starts a process as `start` does, but leaves reaping it to the caller (`waitpid`): for a
    /// caller that times the process to its exit, which a wait on another thread would delay.
    public static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], output: URL? = nil,
        outputDescriptor: Int32? = nil, errors: URL? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let outputDescriptor {
            posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, output?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Every signal at its default and none blocked, as systemd starts a service (but for
        // SIGPIPE, which systemd ignores by default; ligasd sends with MSG_NOSIGNAL anyway). A
        // child inherits the mask of the thread that spawns it, and a Swift cooperative or
        // Dispatch thread blocks most signals (SIGHUP, SIGINT and SIGTERM among them): before
        // this, every child of the tests started with them blocked, and a shell's `kill -INT $$`
        // left it alive.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let spawned = descriptors.withLock { _ in
            // Nothing else of the test process leaks in: a long-lived child (a user manager)
            // holding the write end of another test's pipe would keep that test's reader from ever
            // seeing EOF. Listed and spawned under the lock `pipe` makes its ends under.
            for fd in inheritableDescriptors() { posix_spawn_file_actions_addclose(&actions, fd) }
            return posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        guard spawned == 0 else { throw SpawnError(path: path, errno: spawned) }
        return pid
    }

    /// Held while `start` lists the open descriptors and spawns, and while `pipe` makes a pipe
    /// and marks its ends close-on-exec: no child started meanwhile can inherit them unclosed.
    private static let descriptors = Mutex(())

    /// A pipe whose ends no child inherits, but for the end given to one as `outputDescriptor`.
    public static func pipe() throws -> (read: Int32, write: Int32) {
        try descriptors.withLock { _ in
            var ends: [Int32] = [0, 0]
            guard Glibc.pipe(&ends) == 0 else { throw SpawnError(path: "pipe", errno: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
    }

    /// The descriptors above stderr this process has open now.
    private static func inheritableDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.filter { $0 > 2 }
    }

    /// Runs a short command to completion; returns its exit status.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String], output: URL? = nil
    ) async throws -> Int32 {
        try await start(path, arguments, environment: environment, output: output).waitForExit()
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot run \(path): \(String(cString: strerror(errno)))" }
    }
}
