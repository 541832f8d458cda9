import Foundation
import Glibc
import LigasProtocol

/// What one attack did and what it found wrong.
struct AttackResult: Sendable {
    let name: String
    var figures: [(String, String)] = []
    var problems: [String] = []

    init(_ name: String) { self.name = name }

    mutating func figure(_ key: String, _ value: some CustomStringConvertible) { figures.append(("\(name)_\(key)", value.description)) }

    mutating func problem(_ what: String) {
        if problems.count < 20 { Report.progress("hostile: \(name): \(what)") }
        problems.append(what)
    }
}

/// The attacks of the hostile scenario. Each runs on a thread of its own with blocking sockets
/// (`RawConnection`), so none of them can starve the well-behaved client's async work.
enum HostileAttacks {
    /// Kinds a server may send; anything else from the daemon is a protocol violation.
    static let serverKinds: Set<FrameKind> = [.hello, .response, .error, .streamChunk, .streamEnd]

    // MARK: Random bytes

    /// Connections that send garbage: pure noise; a valid hello header over a random payload;
    /// a valid header announcing more bytes than ever come; noise after a real handshake that
    /// announces a frame larger than the limit. The daemon must close every one — at once, or at
    /// the handshake timeout — having sent only an error frame with id 0 (after its hello, for the
    /// one that said hello). After the handshake, only the idle timeout (300 s, PROTOCOL.md
    /// section 8) ends a length cut short or a frame within the limit that never completes: noise
    /// free to start either (3 in 4,096 of it is under 4 bytes) left a connection open past this
    /// attack's bound in one full run.
    static func randomBytes(socket: String, connections: Int, closeWithin: Duration) throws -> AttackResult {
        var result = AttackResult("random_bytes")
        var open: [(connection: RawConnection, saidHello: Bool)] = []
        for index in 0..<connections {
            let connection = try RawConnection(path: socket)
            let noise = (0..<Int.random(in: 1...4096)).map { _ in UInt8.random(in: 0...255) }
            let helloHeader: [UInt8] = [1, 1, 0, 0, 0, 0, 0, 0]
            switch index % 4 {
            case 0:
                connection.send(noise)
            case 1:
                connection.send(withUnsafeBytes(of: UInt32(8 + noise.count).bigEndian, Array.init) + helloHeader + noise)
            case 2:
                connection.send(withUnsafeBytes(of: UInt32(8 + noise.count + 100).bigEndian, Array.init) + helloHeader + noise)
            default:
                try connection.handshake()
                // A first byte of 0x80 or more: a length of at least 2 GiB, far past the limit.
                connection.send([UInt8.random(in: 0x80...0xFF)] + (0..<3).map { _ in UInt8.random(in: 0...255) } + noise)
            }
            open.append((connection, index % 4 == 3))
        }
        let started = ContinuousClock.now
        let (closed, slowest) = waitForCloses(open.map(\.connection), within: closeWithin, started: started)
        for (connection, saidHello) in open {
            let frames = connection.drain(quiet: .zero)
            if let malformed = connection.malformed { result.problem("the daemon sent a malformed frame: \(malformed)") }
            for frame in frames where frame.kind != .error || frame.requestID != 0 {
                if saidHello && frame.kind == .hello { continue }
                result.problem("answered garbage with a \(frame.kind) frame id \(frame.requestID)")
            }
        }
        result.figure("connections", connections)
        result.figure("closed", closed)
        result.figure("slowest_close_s", Report.seconds(slowest))
        if closed < connections { result.problem("\(connections - closed) garbage connections still open after \(closeWithin)") }
        return result
    }

    /// Polls until the daemon has closed each connection (or `within` passes).
    private static func waitForCloses(_ connections: [RawConnection], within: Duration, started: ContinuousClock.Instant) -> (Int, Duration) {
        var slowest: Duration = .zero
        var pending = connections
        while !pending.isEmpty, ContinuousClock.now - started < within {
            var fds = pending.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 100)
            for (index, entry) in fds.enumerated() where entry.revents != 0 {
                pending[index].receive(timeout: .zero)
            }
            let before = pending.count
            pending.removeAll { $0.closedByPeer }
            if pending.count < before { slowest = ContinuousClock.now - started }
        }
        return (connections.count - pending.count, slowest)
    }

    // MARK: Valid frames in random order

    /// Valid frames of every kind (those only a server may send too) in random order, with and
    /// without a hello first. The daemon may close; it must answer only with valid frames.
    static func randomOrder(socket: String, connections: Int, framesEach: Int) throws -> AttackResult {
        var result = AttackResult("random_order")
        var closedByDaemon = 0
        var framesReceived = 0
        for index in 0..<connections {
            let connection = try RawConnection(path: socket)
            var frames = (0..<framesEach).map { _ in HandFrames.randomKind(id: UInt32.random(in: 1...64)) }
            if index.isMultiple(of: 2) { frames.insert(HandFrames.hello(), at: 0) }
            for frame in frames where !connection.closedByPeer {
                guard connection.send(frame) else { break }
                connection.receive(timeout: .zero)
            }
            let received = connection.drain(quiet: .milliseconds(300))
            framesReceived += received.count
            if let malformed = connection.malformed { result.problem("malformed frame from the daemon: \(malformed)") }
            for frame in received where !serverKinds.contains(frame.kind) { result.problem("the daemon sent a \(frame.kind) frame") }
            if connection.closedByPeer { closedByDaemon += 1 }
            connection.close()
        }
        result.figure("connections", connections)
        result.figure("frames_sent", connections * framesEach)
        result.figure("frames_received", framesReceived)
        result.figure("closed_by_daemon", closedByDaemon)
        return result
    }

    // MARK: Handshakes that never complete

    /// Connections that say nothing, or half a hello: the daemon must close each at its
    /// handshake timeout with `deadlineExceeded`.
    static func neverHandshake(socket: String, connections: Int, closeWithin: Duration) throws -> AttackResult {
        var result = AttackResult("no_handshake")
        var open: [RawConnection] = []
        for index in 0..<connections {
            let connection = try RawConnection(path: socket)
            if index.isMultiple(of: 2) { connection.send(Array(HandFrames.hello().prefix(10))) }
            open.append(connection)
        }
        let (closed, slowest) = waitForCloses(open, within: closeWithin, started: ContinuousClock.now)
        var codes: [String: Int] = [:]
        for connection in open {
            for frame in connection.drain(quiet: .zero) {
                if case .error(0, let body)? = try? Message(frame: frame) { codes[body.code.rawValue, default: 0] += 1 }
            }
        }
        result.figure("connections", connections)
        result.figure("closed", closed)
        result.figure("slowest_close_s", Report.seconds(slowest))
        result.figure("codes", Tally.describe(codes))
        if closed < connections { result.problem("\(connections - closed) silent connections still open after \(closeWithin)") }
        if codes["deadlineExceeded", default: 0] < closed { result.problem("not every close said deadlineExceeded: \(codes)") }
        return result
    }
}
