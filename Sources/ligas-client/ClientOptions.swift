import ArgumentParser
import Foundation
import Glibc
import LigasClient
import LigasProtocol

/// Options every subcommand takes.
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
    func run<T: Sendable>(_ body: @escaping @Sendable (LigasClient) async throws -> T) async throws -> T {
        let path = socket ?? SocketLocation.default()
        let timeout = timeout
        do {
            return try await withTimeout(timeout) {
                let client = try await LigasClient.connect(
                    socketPath: path, requestDeadline: timeout.map { .milliseconds(Int64($0 * 1000)) })
                defer { client.close() }
                return try await body(client)
            }
        } catch {
            Terminal.standardError.write("ligas-client: \(Self.message(for: error))\n")
            throw ExitCode(ExitStatus.code(for: error))
        }
    }

    private static func message(for error: any Error) -> String {
        if case ClientError.server(let body) = error { return "\(body.code): \(body.message)" }
        return "\(error)"
    }

    private func withTimeout<T: Sendable>(_ seconds: Double?, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
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
