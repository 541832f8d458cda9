import Crypto
import Foundation
import LigasProtocol
import Logging

/// One request's life on the server side: run the handler (within the request's deadline),
/// then send its reply, or stream its bytes with backpressure, or send its error. Logs one
/// entry per request served.
struct RequestExchange: Sendable {
    let connection: Connection
    let requestID: UInt32
    let request: Request
    let chunkSize: Int

    func run(handler: any RequestHandler, context: RequestContext, logger: Logger, logTags: ServerLogTags) async {
        let started = ContinuousClock.now
        var metadata: Logger.Metadata = [
            "request-id": "\(requestID)", "method": "\(request.method.name)",
            "arguments": "\(request.call.argumentsText)", "cache-policy": "\(request.cache.rawValue)",
        ]
        let outcome = await Self.withDeadline(request.deadlineMs) {
            await handler.handle(request, context: context)
        }
        switch outcome {
        case .reply(let reply, let source):
            if let source { metadata["source"] = "\(source.rawValue)" }
            guard await connection.send(requestID, final: true, { encoder, out in
                try encoder.appendResponse(id: requestID, reply, to: &out)
            }) else { return }
        case .failure(let error):
            metadata["error-code"] = "\(error.code)"
            guard await connection.send(requestID, final: true, { encoder, out in
                try encoder.appendError(id: requestID, error, to: &out)
            }) else { return }
        case .stream(let header, let chunks):
            metadata["source"] = "\(header.source.rawValue)"
            let streamed = await stream(header, chunks)
            metadata["bytes"] = "\(streamed.bytes)"
            metadata["chunks"] = "\(streamed.chunks)"
            metadata["outcome"] = "\(streamed.outcome)"
            if let code = streamed.errorCode { metadata["error-code"] = "\(code)" }
            metadata["duration-us"] = "\(Self.microseconds(since: started))"
            metadata.tag(logTags.imageStreamed)
            logger.info("image stream \(streamed.outcome)", metadata: metadata)
            return
        }
        metadata["duration-us"] = "\(Self.microseconds(since: started))"
        metadata.tag(logTags.requestServed)
        logger.info("request served", metadata: metadata)
    }

    private struct Streamed {
        var bytes = 0
        var chunks = 0
        var outcome = "complete"
        var errorCode: ErrorCode?
    }

    /// Header, chunks (never more than `chunkSize` each), then the end frame with the SHA-256.
    /// A cancel stops it silently: nothing more is sent for the request id.
    private func stream(_ header: StreamHeader, _ chunks: any AsyncSequence<Data, any Error> & Sendable) async -> Streamed {
        var streamed = Streamed()
        guard await connection.send(requestID, final: false, { encoder, out in
            try encoder.appendStreamHeader(id: requestID, header, to: &out)
        }) else {
            streamed.outcome = "cancelled"
            return streamed
        }
        var hasher = SHA256()
        do {
            for try await chunk in chunks {
                var offset = chunk.startIndex
                while offset < chunk.endIndex {
                    guard await connection.waitForRoom(requestID), !Task.isCancelled else {
                        streamed.outcome = "cancelled"
                        return streamed
                    }
                    let end = chunk.index(offset, offsetBy: chunkSize, limitedBy: chunk.endIndex) ?? chunk.endIndex
                    let piece = chunk[offset..<end]
                    offset = end
                    hasher.update(data: piece)
                    streamed.bytes += piece.count
                    streamed.chunks += 1
                    guard await connection.send(requestID, final: false, { encoder, out in
                        try encoder.appendStreamChunk(id: requestID, piece, to: &out)
                    }) else {
                        streamed.outcome = "cancelled"
                        return streamed
                    }
                }
            }
        } catch {
            let body = (error as? ErrorBody) ?? ErrorBody(code: .internal, message: "stream failed: \(error)")
            streamed.outcome = "failed"
            streamed.errorCode = body.code
            _ = await connection.send(requestID, final: true) { encoder, out in
                try encoder.appendError(id: requestID, body, to: &out)
            }
            return streamed
        }
        guard !Task.isCancelled else {
            streamed.outcome = "cancelled"
            return streamed
        }
        let end = StreamEnd(totalBytes: UInt64(streamed.bytes), sha256: Data(hasher.finalize()))
        if !(await connection.send(requestID, final: true, { encoder, out in
            try encoder.appendStreamEnd(id: requestID, end, to: &out)
        })) {
            streamed.outcome = "cancelled"
        }
        return streamed
    }

    /// Runs `work`, unless the client's deadline passes first (`deadlineExceeded`; the work is cancelled).
    static func withDeadline(
        _ deadlineMs: UInt32?, _ work: @escaping @Sendable () async -> HandlerOutcome
    ) async -> HandlerOutcome {
        let exceeded = HandlerOutcome.failure(ErrorBody(code: .deadlineExceeded, message: "the request's deadline passed"))
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

    private static func microseconds(since start: ContinuousClock.Instant) -> Int64 {
        (ContinuousClock.now - start).wholeMicroseconds
    }
}
