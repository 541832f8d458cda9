import Foundation
@testable import LigasClient
import Testing

/// The client's SHA-256 (OpenSSL's, loaded when first needed) against known digests, whole and in
/// pieces.
@Suite("ligas-client SHA-256")
struct ClientDigestTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("Known vectors: empty input and \"abc\"")
    func vectors() throws {
        #expect(Self.hex(try #require(SHA256()).finalize()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let hasher = try #require(SHA256())
        hasher.update(data: Data("abc".utf8))
        #expect(Self.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("A million 'a's in uneven chunks, empty ones among them, give the one-shot digest")
    func chunked() throws {
        let hasher = try #require(SHA256())
        let sizes = [0, 1, 63, 64, 65, 4096, 0, 65_536]
        var (left, turn) = (1_000_000, 0)
        while left > 0 {
            let count = min(sizes[turn % sizes.count], left)
            hasher.update(data: Data(repeating: UInt8(ascii: "a"), count: count))
            (left, turn) = (left - count, turn + 1)
        }
        #expect(Self.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("ligas-client does not link libcrypto: a process that checks no stream never loads it")
    func libcryptoNotLinked() async throws {
        let run = try await CommandRun.run(URL(fileURLWithPath: "/usr/bin/ldd"), [Binaries.url("ligas-client").path], environment: [:])
        #expect(run.status == 0)
        #expect(run.text.contains("libc.so.6"))
        #expect(!run.text.contains("libcrypto"))
    }
}
