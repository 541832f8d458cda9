import Foundation
@testable import LigasClient
import LigasProtocol
import LigasServer
import LigasTestSupport
import Testing

@Suite("LigasClient: one reader thread reads every connection of the process")
struct ClientReaderThreadTests {
    /// Threads of this process named like the reader (Linux keeps 15 bytes of a thread's name).
    static func readerThreads() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.hasPrefix("ligas-client re") == true
        }
    }

    @Test("32 connections with calls in flight at once are all answered, and the process has one reader thread")
    func oneThreadForManyConnections() async throws {
        try await TestServer.run { server in
            let clients = try await (0..<32).asyncMap { _ in
                try await ClientAnswerHereTests.client(server, budget: .zero)
            }
            defer { clients.forEach { $0.close() } }
            let answered = try await withThrowingTaskGroup(of: [String].self) { group in
                for client in clients {
                    group.addTask { try await client.teams(league: "ready").value.map(\.id) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answered == Array(repeating: ["ready"], count: 32))
            #expect(try Self.readerThreads() == 1)
        }
    }

    @Test("A client dropped without close while the reader watches it goes away: the daemon sees its connection end")
    func droppedClientGoesAway() async throws {
        try await TestServer.run { server in
            try await {
                let client = try await ClientAnswerHereTests.client(server, budget: .zero)
                // With no budget the answer comes through the reader, which then keeps watching
                // the connection: the reader's set must not keep it alive.
                try await client.ping()
            }()
            try await server.waitFor("the dropped client's connection closed") { $0.openConnections == 0 }
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
