import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import LigasClient
import LigasProtocol
import Synchronization

/// Options every subcommand takes, before or after the subcommand's name.
struct ClientOptions: ParsableArguments {
    @Option(help: "ligasd's socket (env: LIGAS_SOCKET; default: /run/ligasd/ligasd.sock if present, else $XDG_RUNTIME_DIR/ligasd.sock).")
    var socket: String?

    @Flag(help: "Print stable JSON (documented in the README) instead of a table.")
    var json = false

    @Flag(help: "Skip the cache: ask the remote and update the cache.")
    var refresh = false

    @Flag(help: "Never touch the network: answer from the cache or fail.")
    var offline = false

    @Option(help: "Give up after this many seconds (also sent to ligasd as the request's deadline).")
    var timeout: Double?

    func validate() throws {
        if refresh && offline { throw ValidationError("--refresh and --offline exclude each other") }
        if let timeout, !(timeout > 0 && timeout < 86_400) { throw ValidationError("--timeout takes seconds, more than 0") }
    }

    var cachePolicy: CachePolicy { refresh ? .refresh : offline ? .offline : .default }

    /// Connects, runs `body` within the timeout, closes, and turns failures into exit codes.
    /// Ctrl-C cancels `body` (which sends `cancel` to ligasd), prints "interrupted" and exits 130.
    func run<T: Sendable>(_ body: @escaping @Sendable (LigasClient) async throws -> T) async throws -> T {
        let path = socket ?? SocketLocation.default()
        let timeout = timeout
        do {
            return try await Interrupt.cancelling {
                try await Self.withTimeout(timeout) {
                    let client = try await LigasClient.connect(
                        socketPath: path, requestDeadline: timeout.map { .milliseconds(Int64($0 * 1000)) })
                    defer { client.close() }
                    return try await body(client)
                }
            }
        } catch {
            throw Self.exit(for: error, timeout: timeout)
        }
    }

    /// Runs `body` (local work before or after talking to ligasd: the output file), reporting its
    /// failure as `run` reports one.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw exit(for: error, timeout: nil)
        }
    }

    /// Prints "ligas-client: …" for `error`; the exit code that goes with it.
    private static func exit(for error: any Error, timeout: Double?) -> ExitCode {
        Terminal.standardError.write("ligas-client: \(message(for: error, timeout: timeout))\n")
        return ExitCode(ExitStatus.code(for: error))
    }

    /// What the user reads after "ligas-client: ": plain words, never a Swift type's name.
    static func message(for error: any Error, timeout: Double?) -> String {
        switch error {
        case is CancellationError:
            return "interrupted"
        case ClientError.server(let body):
            let details = (body.details ?? [:]).sorted { $0.key < $1.key }.map { " (\($0.key): \($0.value))" }.joined()
            return "\(body.code): \(body.message)\(details)"
        case ClientError.timedOut:
            return timeout.map { "no complete answer from ligasd within \(seconds($0)) (--timeout)" } ?? ClientError.timedOut.description
        default:
            return "\(error)"
        }
    }

    /// "2 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private static func withTimeout<T: Sendable>(_ seconds: Double?, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let seconds else { return try await body() }
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                throw ClientError.timedOut
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}

/// Ctrl-C (SIGINT) while a command talks to ligasd: cancel the work, which cancels its requests on
/// the daemon too, and fail with `CancellationError` (exit 130) even if the work then ends quietly,
/// as a cancelled image download does.
enum Interrupt {
    static func cancelling<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let state = State()
        // Ignored first, as libdispatch wants: the source still sees the signal (its registration
        // installs libdispatch's own handler), and the default action would kill us.
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { state.interrupt() }
        source.resume()
        defer { source.cancel() }
        let task = Task { try await work() }
        state.watch(task)
        let result = await task.result
        if state.interrupted { throw CancellationError() }
        return try result.get()
    }

    private final class State: @unchecked Sendable {
        private let lock = Mutex(())
        private var cancel: (@Sendable () -> Void)?
        private var wasInterrupted = false

        var interrupted: Bool { lock.withLock { _ in wasInterrupted } }

        func watch<T>(_ task: Task<T, any Error>) {
            let cancelNow = lock.withLock { _ -> Bool in
                cancel = { task.cancel() }
                return wasInterrupted
            }
            if cancelNow { task.cancel() }
        }

        func interrupt() {
            let cancel = lock.withLock { _ -> (@Sendable () -> Void)? in
                wasInterrupted = true
                return self.cancel
            }
            cancel?()
        }
    }
}
