import Foundation
import Glibc
import LigasProtocol

/// The hostile attacks that misuse requests on an open connection.
extension HostileAttacks {
    // MARK: 10,000 cancels

    /// Requests of every method, each cancelled right after it is sent, plus cancels of ids that
    /// were never used. Afterwards the connection still answers, and once the answer to a later
    /// ping has arrived nothing more comes for any cancelled id.
    ///
    /// Each batch ends with a ping, and the next batch waits for its answer: the daemon answers
    /// frames in order, so everything answered before it has been read by then. Without that,
    /// requests sent ahead piled up in the socket, and a daemon that answered them faster than
    /// this reader read took it, rightly, for a client not reading (`LIGASD_MAX_OUTPUT_BYTES`,
    /// PROTOCOL.md) and closed the connection: the attack failed on fast runs.
    static func cancels(socket: String, count: Int) throws -> AttackResult {
        var result = AttackResult("cancels")
        let connection = try RawConnection(path: socket)
        try connection.handshake()
        var lateFrames = 0
        var sent = 0
        let started = ContinuousClock.now
        var id: UInt32 = 1
        var batchPingID: UInt32 = 3_000_000
        attack: while sent < count {
            var batch: [UInt8] = []
            for _ in 0..<min(50, count - sent) {
                batch += HandFrames.request(id, HandFrames.randomCall())
                batch += HandFrames.cancel(id)
                if id.isMultiple(of: 10) { batch += HandFrames.cancel(id + 1_000_000) }  // never used
                id += 1
                sent += 1
            }
            batchPingID += 1
            batch += HandFrames.request(batchPingID, Call(Methods.Ping.self))
            guard connection.send(batch) else {
                result.problem("the daemon closed the connection after \(sent) cancels")
                break
            }
            while true {
                guard let frame = connection.nextFrame(timeout: .seconds(30)) else {
                    result.problem("no answer to a ping after \(sent) cancels\(connection.closedByPeer ? " (the daemon closed the connection)" : "")")
                    break attack
                }
                if frame.requestID == batchPingID { break }
            }
        }
        let pingID: UInt32 = 2_000_000
        connection.send(HandFrames.request(pingID, Call(Methods.Ping.self)))
        var answered = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !answered, ContinuousClock.now < deadline, let frame = connection.nextFrame(timeout: .seconds(30)) {
            if frame.requestID == pingID { answered = frame.kind == .response }
        }
        let elapsed = ContinuousClock.now - started
        for frame in connection.drain(quiet: .milliseconds(500)) where frame.requestID < pingID { lateFrames += 1 }
        if let malformed = connection.malformed { result.problem("malformed frame from the daemon: \(malformed)") }
        if !answered { result.problem("no answer to a ping after \(sent) cancels") }
        if lateFrames > 0 { result.problem("\(lateFrames) frames for cancelled ids after the ping's answer") }
        result.figure("sent", sent)
        result.figure("s", Report.seconds(elapsed))
        result.figure("late_frames", lateFrames)
        connection.close()
        return result
    }

    // MARK: A request id reused while in flight

    /// A slow request, then another with the same id while the first is in flight. PROTOCOL.md §6:
    /// the reuse is fatal, `error` id 0 `badFrame` naming the id (`details.requestId`), then the
    /// close (no later frame for that id could be told apart); the request in flight is abandoned.
    /// One connection per round, teams and whole streams in turn.
    static func reusedID(socket: String, rounds: Int, mediumImageURL: URL) throws -> AttackResult {
        var result = AttackResult("reused_id")
        var refused = 0
        var closed = 0
        for round in 0..<rounds {
            let connection = try RawConnection(path: socket)
            try connection.handshake()
            let id = UInt32(100 + round)
            let first: Call = round.isMultiple(of: 2)
                ? Call(Methods.Image.self, .url(mediumImageURL)) : Call(Methods.Teams.self, TeamsArguments(league: "slow-\(round)"))
            connection.send(HandFrames.request(id, first, cache: .refresh) + HandFrames.request(id, Call(Methods.Ping.self)))
            var sawRefusal = false
            while let frame = connection.nextFrame(timeout: .seconds(30)) {
                guard frame.requestID == 0, case .error(_, let body)? = try? Message(frame: frame) else { continue }
                if body.code == .badFrame, body.details?["requestId"] == String(id) { sawRefusal = true }
            }
            if sawRefusal { refused += 1 } else { result.problem("round \(round): the reused id was not refused with badFrame (id 0, requestId \(id))") }
            if connection.closedByPeer { closed += 1 } else { result.problem("round \(round): the connection was not closed") }
            if let malformed = connection.malformed { result.problem("round \(round): malformed frame from the daemon: \(malformed)") }
            connection.close()
        }
        result.figure("rounds", rounds)
        result.figure("refused", refused)
        result.figure("closed", closed)
        return result
    }

    // MARK: Deadline 0

    /// Requests of every method with `deadlineMs: 0`: each answered `deadlineExceeded`.
    static func deadlineZero(socket: String, count: Int) throws -> AttackResult {
        var result = AttackResult("deadline0")
        let connection = try RawConnection(path: socket)
        try connection.handshake()
        var codes: [String: Int] = [:]
        var id: UInt32 = 1
        while id <= UInt32(count) {
            let window = (id..<min(id + 32, UInt32(count) + 1))
            connection.send(window.flatMap { HandFrames.request($0, HandFrames.randomCall(), deadlineMs: 0) })
            var pending = Set(window)
            while !pending.isEmpty, let frame = connection.nextFrame(timeout: .seconds(10)) {
                guard pending.remove(frame.requestID) != nil else { continue }
                if case .error(_, let body)? = try? Message(frame: frame) {
                    codes[body.code.rawValue, default: 0] += 1
                } else {
                    codes["\(frame.kind)", default: 0] += 1
                }
            }
            if !pending.isEmpty {
                result.problem("\(pending.count) requests with deadline 0 got no answer")
                break
            }
            id = window.upperBound
        }
        let exceeded = codes["deadlineExceeded", default: 0]
        result.figure("requests", count)
        result.figure("deadline_exceeded", exceeded)
        if exceeded != count { result.problem("answers to deadline 0: \(codes)") }
        connection.close()
        return result
    }

    // MARK: A reader of one byte per second

    /// Asks for the big image and reads it one byte per second, for `duration`, with a tiny
    /// receive buffer: the daemon must hold the stream (backpressure), not the bytes.
    static func slowReader(socket: String, imageURL: URL, duration: Duration) throws -> AttackResult {
        var result = AttackResult("slow_reader")
        let connection = try RawConnection(path: socket, receiveBuffer: 4096)
        try connection.handshake()
        connection.send(HandFrames.request(1, Call(Methods.Image.self, .url(imageURL)), cache: .refresh))
        var read = 0
        let started = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 1)
        while ContinuousClock.now - started < duration {
            let second = ContinuousClock.now
            var waiting = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            if poll(&waiting, 1, 1000) > 0 {
                guard recv(connection.fd, &buffer, 1, 0) == 1 else {
                    result.problem("the daemon closed the slow reader after \(read) bytes")
                    break
                }
                read += 1
            }
            let rest = .seconds(1) - (ContinuousClock.now - second)
            if rest > .zero { Thread.sleep(forTimeInterval: rest.seconds) }
        }
        result.figure("s", Report.seconds(ContinuousClock.now - started))
        result.figure("bytes_read", read)
        connection.close()
        return result
    }
}
