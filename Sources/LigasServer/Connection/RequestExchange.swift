import Crypto
import FoundationEssentials
import LigasProtocol

/// One request's life on the server side when its answer is not ready at once: run the handler
/// (within the request's deadline), then send its reply, or stream its bytes with backpressure
/// (or hand a ready stream to the connection), or send its error. Leaves one log entry.
struct RequestExchange: Sendable {
    let connection: Connection
    let requestID: UInt32
    /// Its token on the connection: what it sends goes out only while it is the request in flight
    /// under its id (see `Connection.deliver`).
    let token: UInt64
    let request: Request
    let chunkSize: Int
    /// The entry this request will leave in the log.
    var entry: RequestLogEntry

    func run(handler: any RequestHandler, context: RequestContext, log: any RequestLog) async {
        let started = ContinuousClock.now
        var entry = entry
        let outcome = await Self.withDeadline(request.deadlineMs) {
            await handler.handle(request, context: context)
        }
        switch outcome {
        case .reply(let reply, let source):
            entry.source = source
            guard entry.record(await connection.sendFinal(requestID, token: token, { encoder, out in
                try encoder.appendResponse(id: requestID, reply, to: &out)
            })) else { return }
        case .encodedReply(let payload, let source):
            entry.source = source
            guard entry.record(await connection.sendFinal(requestID, token: token, { encoder, out in
                try encoder.appendRaw(.response, requestID: requestID, bytes: payload, to: &out)
            })) else { return }
        case .failure(let error):
            entry.failure = .init(error)
            guard entry.record(await connection.sendFinal(requestID, token: token, { encoder, out in
                try encoder.appendError(id: requestID, error, to: &out)
            })) else { return }
        case .stream(let outgoing):
            entry.source = outgoing.header.source
            await stream(outgoing).record(in: &entry)
        case .readyStream(let ready):
            // The connection sends it, and leaves the entry.
            return await connection.handOver(ready, for: requestID, token: token, chunkSize: chunkSize, entry: entry, started: started)
        }
        entry.durationMicroseconds = (ContinuousClock.now - started).wholeMicroseconds
        log.write(entry)
    }

    /// A frame handed to the connection, and the chunk bytes it carries (nil for the header).
    private struct FrameOnItsWay {
        let ticket: DeliveryTicket
        let chunkBytes: Int?
    }

    /// Header, chunks (never more than `chunkSize` each), then the end frame with the SHA-256:
    /// the one the stream brings if it knows it, else computed here chunk by chunk. A cancel
    /// stops it silently: nothing more is sent for the request id. Each frame leaves while the
    /// next chunk is read (see `Connection.sendStreamFrame`).
    private func stream(_ outgoing: OutgoingStream) async -> StreamProgress {
        var streamed = StreamProgress()
        var sending = FrameOnItsWay(ticket: connection.sendStreamFrame(requestID, token: token) { [header = outgoing.header] encoder, out in
            try encoder.appendStreamHeader(id: requestID, header, to: &out)
        }, chunkBytes: nil)
        var hasher = outgoing.sha256 == nil ? SHA256() : nil
        do {
            for try await chunk in outgoing.chunks {
                var offset = chunk.startIndex
                while offset < chunk.endIndex {
                    guard await streamed.goesOn(after: sending.ticket.delivery, chunkBytes: sending.chunkBytes) else { return streamed }
                    // A cancel read while the frame before went out stops the stream here.
                    guard !Task.isCancelled else {
                        streamed.summary.outcome = .cancelled
                        return streamed
                    }
                    let end = chunk.index(offset, offsetBy: chunkSize, limitedBy: chunk.endIndex) ?? chunk.endIndex
                    let piece = chunk[offset..<end]
                    offset = end
                    hasher?.update(data: piece)
                    sending = FrameOnItsWay(ticket: connection.sendStreamFrame(requestID, token: token, payload: piece) { encoder, out in
                        try encoder.appendRawHead(.streamChunk, requestID: requestID, flags: [], payloadCount: piece.count, to: &out)
                    }, chunkBytes: piece.count)
                }
            }
        } catch {
            // The frame on its way first: an error sent now would overtake it (an error is final,
            // and waits for no room), and if that frame ended the request, no one is left to tell.
            guard await streamed.goesOn(after: sending.ticket.delivery, chunkBytes: sending.chunkBytes) else { return streamed }
            let body = (error as? ErrorBody) ?? ErrorBody(code: .internal, message: "stream failed: \(error)")
            if streamed.goesOn(after: await connection.sendFinal(requestID, token: token, { encoder, out in
                try encoder.appendError(id: requestID, body, to: &out)
            })) {
                streamed.failed(with: body)
            }
            return streamed
        }
        guard await streamed.goesOn(after: sending.ticket.delivery, chunkBytes: sending.chunkBytes) else { return streamed }
        guard !Task.isCancelled else {
            streamed.summary.outcome = .cancelled
            return streamed
        }
        let digest = outgoing.sha256 ?? hasher.map { Data($0.finalize()) } ?? Data()
        let end = StreamEnd(totalBytes: UInt64(streamed.summary.bytes), sha256: digest)
        _ = streamed.goesOn(after: await connection.sendFinal(requestID, token: token, { encoder, out in
            try encoder.appendStreamEnd(id: requestID, end, to: &out)
        }))
        return streamed
    }

    /// Runs `work`, unless the client's deadline passes first (`deadlineExceeded`; the work is cancelled).
    static func withDeadline(
        _ deadlineMs: UInt32?, _ work: @escaping @Sendable () async -> HandlerOutcome
    ) async -> HandlerOutcome {
        let exceeded = HandlerOutcome.failure(.deadlinePassed)
        guard let deadlineMs else { return await work() }
        guard deadlineMs > 0 else { return exceeded }
        return await withTaskGroup(of: HandlerOutcome?.self) { group in
            group.addTask { await work() }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(deadlineMs)))
                return Task.isCancelled ? nil : exceeded
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? exceeded
        }
    }
}

extension ErrorBody {
    static let deadlinePassed = ErrorBody(code: .deadlineExceeded, message: "the request's deadline passed")
}
