import FoundationEssentials
import LigasDomain

/// Serves `file://` URLs as if a static HTTP server were in front of the directory: a missing
/// file is a 404, the content type comes from the extension. This is what makes the bundled
/// sample data a complete remote with no server running.
public struct FileSystemHTTPClient: HTTPClient {
    public init() {}

    public func get(_ url: URL, headers: [String: String], maxBodyBytes: Int) async throws -> (HTTPResponseHead, HTTPBody) {
        guard url.isFileURL else { throw LigasError.connectivity("not a file URL: \(url.scheme ?? "")") }
        let path = url.standardizedFileURL.path
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory else {
            return (HTTPResponseHead(status: 404, contentType: nil, contentLength: 0), DataChunks(data: Data(), chunkSize: 1))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maxBodyBytes else { throw RemoteFailure.bodyTooLarge(maxBodyBytes, url: url) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LigasError.connectivity("cannot read \(path): \(error)")
        }
        guard data.count <= maxBodyBytes else { throw RemoteFailure.bodyTooLarge(maxBodyBytes, url: url) }
        let head = HTTPResponseHead(status: 200, contentType: Self.contentType(ofExtension: url.pathExtension), contentLength: data.count)
        return (head, DataChunks(data: data, chunkSize: LocalImageLoader.defaultChunkSize))
    }

    static func contentType(ofExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "json": "application/json"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
