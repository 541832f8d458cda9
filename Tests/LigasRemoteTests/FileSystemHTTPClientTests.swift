import Foundation
import LigasDomain
import LigasRemote
import LigasTestSupport
import Testing

@Suite("file:// remotes")
struct FileSystemHTTPClientTests {
    /// Removed when the test's instance goes.
    let temporary = TemporaryDirectory()
    var directory: URL { temporary.url }

    init() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("leagues/x"), withIntermediateDirectories: true)
    }

    @Test("Serves a file like a static web server, with a content type from its extension")
    func servesFile() async throws {
        try json(#"{"teams":[]}"#).write(to: directory.appendingPathComponent("leagues/x/teams.json"))

        let (head, body) = try await FileSystemHTTPClient().getData(directory.appendingPathComponent("leagues/x/teams.json"), headers: [:], maxBodyBytes: 100)

        #expect(head == HTTPResponseHead(status: 200, contentType: "application/json", contentLength: 12))
        #expect(body == json(#"{"teams":[]}"#))
    }

    @Test("A missing file or a directory is a 404")
    func missing() async throws {
        #expect(try await FileSystemHTTPClient().getData(directory.appendingPathComponent("nope.json"), headers: [:], maxBodyBytes: 100).0.status == 404)
        #expect(try await FileSystemHTTPClient().getData(directory.appendingPathComponent("leagues"), headers: [:], maxBodyBytes: 100).0.status == 404)
    }

    @Test("A file over the cap is refused without reading it")
    func overCap() async throws {
        try Data(repeating: 1, count: 1000).write(to: directory.appendingPathComponent("big.json"))

        let path = directory.appendingPathComponent("big.json").standardizedFileURL.path
        await #expect(throws: LigasError.invalidData("\(path) is larger than 999 bytes")) {
            try await FileSystemHTTPClient().getData(directory.appendingPathComponent("big.json"), headers: [:], maxBodyBytes: 999)
        }
    }

    @Test("Scheme routing refuses schemes other than file, http and https")
    func otherSchemes() async {
        let client = SchemeRoutingHTTPClient(http: FileSystemHTTPClient())
        await #expect(throws: LigasError.notFound("unsupported URL scheme 'ftp'")) {
            try await client.get(URL(string: "ftp://x.test/a")!, headers: [:], maxBodyBytes: 1)
        }
    }
}
