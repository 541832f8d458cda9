import Foundation
import LigasDomain
import LigasRemote
import LigasTestSupport

/// Records GETs and answers them with a scripted status and body (or error).
final class HTTPClientSpy: HTTPClient, Sendable {
    private let state = Shared<(requests: [(URL, [String: String])], result: Result<(Int, String?, Data), any Error>, chunkSize: Int)>(
        ([], .success((200, "application/json", Data())), 1024))

    var requestedURLs: [URL] { state.withLock { $0.requests.map(\.0) } }
    var requestedHeaders: [[String: String]] { state.withLock { $0.requests.map(\.1) } }

    /// The body comes in pieces of `chunkSize` bytes.
    func complete(status: Int, contentType: String? = "application/json", body: Data = Data(), chunkSize: Int = 1024) {
        state.withLock {
            $0.result = .success((status, contentType, body))
            $0.chunkSize = chunkSize
        }
    }

    func fail(with error: any Error) {
        state.withLock { $0.result = .failure(error) }
    }

    func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
        let ((status, contentType, body), chunkSize) = try state.withLock { state in
            state.requests.append((url, headers))
            return (try state.result.get(), state.chunkSize)
        }
        return (HTTPResponseHead(status: status, contentType: contentType, contentLength: body.count),
                DataChunks(data: body, chunkSize: chunkSize))
    }
}

func json(_ text: String) -> Data { Data(text.utf8) }
