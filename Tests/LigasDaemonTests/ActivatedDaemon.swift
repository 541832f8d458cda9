import Foundation
import Glibc
import LigasClient
import LigasTestSupport

/// The service manager's end of `NOTIFY_SOCKET`: an AF_UNIX datagram socket the test binds, which
/// keeps every `sd_notify` message ligasd sends, in order.
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let socket: UnixSocket
    private let received = Shared<[String]>([])

    init(path: String) throws {
        self.path = path
        socket = try UnixSocket.datagram()
        try socket.bind(to: path)
    }

    /// Every message so far (each is one datagram of newline-separated assignments).
    func messages() throws -> [String] {
        let new = try socket.receivedDatagrams()
        return received.withLock {
            $0 += new
            return $0
        }
    }

    /// Every assignment so far, in order: "READY=1", "STATUS=…", "WATCHDOG=1", ….
    func assignments() throws -> [String] {
        try messages().flatMap { $0.split(separator: "\n").map(String.init) }
    }

    /// Waits (bounded) until the assignments so far satisfy `condition`; returns them.
    @discardableResult
    func waitFor(_ what: String, timeout: Duration = .seconds(20), _ condition: @escaping ([String]) -> Bool) async throws -> [String] {
        try await poll(what, timeout: timeout, every: .milliseconds(10)) {
            let assignments = try assignments()
            return condition(assignments) ? assignments : nil
        }
    }
}

/// `systemd-socket-activate -l <dir>/ligasd.sock --fdname=ligasd -E … ligasd`: the real tool holds
/// the listening socket and, on the first connection, execs ligasd with it as fd 3 (so ligasd's pid is
/// the tool's). Its environment is only what `-E` passes (plus PATH, HOME, USER, TERM): nothing of the
/// test process leaks in. `NOTIFY_SOCKET` points at `notify`, bound before the tool starts.
final class ActivatedDaemon: @unchecked Sendable {
    let directory = TemporaryDirectory()
    let notify: NotifySocket
    let process: ChildProcess
    var socketPath: String { directory.url.appendingPathComponent("ligasd.sock").path }
    var cachePath: String { directory.url.appendingPathComponent("cache.sqlite").path }
    /// ligasd's pid once activated (systemd-socket-activate execs it, keeping its pid).
    var pid: Int32 { process.pid }

    static let tool = "/usr/bin/systemd-socket-activate"

    /// - Parameter watchdogPIDIsOwn: also pass `WATCHDOG_PID` set to ligasd's pid. That pid is the
    ///   tool's, known before the tool starts only to a shell that then execs it: `$$`.
    init(remote: URL, environment: [String: String] = [:], watchdogPIDIsOwn: Bool = false) throws {
        notify = try NotifySocket(path: directory.url.appendingPathComponent("notify").path)
        let settings = [
            "LIGASD_REMOTE": remote.absoluteString, "LIGASD_CACHE": directory.url.appendingPathComponent("cache.sqlite").path,
            "LIGASD_LOG_TARGET": "stderr", "LIGASD_LOG_LEVEL": "debug", "NOTIFY_SOCKET": notify.path,
        ].merging(environment) { $1 }
        let arguments = ["--listen=\(directory.url.appendingPathComponent("ligasd.sock").path)", "--fdname=ligasd"]
            + settings.sorted { $0.key < $1.key }.map { "--setenv=\($0.key)=\($0.value)" }
            + (watchdogPIDIsOwn ? ["--setenv=WATCHDOG_PID"] : [])  // no value: the tool passes on its own
            + [Binaries.url("ligasd").path]
        let log = directory.url.appendingPathComponent("ligasd.log")
        if watchdogPIDIsOwn {
            process = try ChildProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "WATCHDOG_PID=$$; export WATCHDOG_PID; exec \"$0\" \"$@\"", Self.tool] + arguments,
                errorLog: log)
        } else {
            process = try ChildProcess(URL(fileURLWithPath: Self.tool), arguments, errorLog: log)
        }
    }

    /// Connects (bounded). The first connection is what makes the tool exec ligasd; a connect that
    /// comes before the tool listens is refused and retried, which activates nothing.
    func client() async throws -> LigasClient {
        let path = socketPath
        var lastReason = ""
        do {
            return try await poll("\(path) accepting", timeout: .seconds(20), every: .milliseconds(10)) {
                do {
                    return try await within(.seconds(20), "the hello exchange with the activated ligasd") {
                        try await LigasClient.connect(socketPath: path)
                    }
                } catch ClientError.daemonUnreachable(_, let reason) {
                    lastReason = reason
                    guard process.isRunning else {
                        throw TestFailure("\(path) never accepted (\(reason)); the tool and ligasd printed:\n\(log)")
                    }
                    return nil
                } catch let hung as TimedOut {
                    throw TestFailure(hung.description)  // the hello exchange hung: not poll's own time limit
                }
            }
        } catch is TimedOut {
            throw TestFailure("\(path) never accepted (\(lastReason)); the tool and ligasd printed:\n\(log)")
        }
    }

    /// What systemd-socket-activate and ligasd wrote to stderr.
    var log: String { process.errorOutput }

    func stop() async {
        await process.stop()
    }

    /// Runs `body` with an activated daemon (not yet activated: `body` connects), then stops it.
    static func run(
        remote: URL, environment: [String: String] = [:], watchdogPIDIsOwn: Bool = false,
        _ body: (ActivatedDaemon) async throws -> Void
    ) async throws {
        let daemon = try ActivatedDaemon(remote: remote, environment: environment, watchdogPIDIsOwn: watchdogPIDIsOwn)
        let outcome = await asyncResult { try await body(daemon) }
        await daemon.stop()
        try outcome.get()
    }
}
