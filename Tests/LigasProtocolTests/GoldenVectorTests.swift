import Foundation
import Testing
@testable import LigasProtocol

/// The committed files in Protocol/vectors are the truth. Set LIGAS_REGENERATE_VECTORS=1
/// to rewrite them from `VectorCatalog` (then review the diff before committing).
@Suite("Golden vectors")
struct GoldenVectorTests {
    static let regenerate = ProcessInfo.processInfo.environment["LIGAS_REGENERATE_VECTORS"] == "1"

    @Test("the vectors folder holds exactly one file per catalogued vector")
    func folderMatchesCatalog() throws {
        if Self.regenerate {
            try FileManager.default.createDirectory(at: RepositoryPaths.vectors, withIntermediateDirectories: true)
            for spec in VectorCatalog.all {
                try VectorFile.render(spec).write(to: VectorFile.url(for: spec.name), atomically: true, encoding: .utf8)
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: RepositoryPaths.vectors.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        #expect(Set(files) == Set(VectorCatalog.all.map(\.name)))
        #expect(VectorCatalog.all.count == Set(VectorCatalog.all.map(\.name)).count, "vector names are unique")
    }

    @Test("every frame kind and every method's request and response has a vector")
    func coverage() {
        let kinds = Set(VectorCatalog.all.map(\.kind))
        #expect(kinds == Set(FrameKind.allCases))
        let requested = Set(VectorCatalog.all.compactMap { spec -> String? in
            if case .request(let request) = spec.payload { return request.method.name }
            return nil
        })
        let answered = Set(VectorCatalog.all.compactMap { spec -> String? in
            switch spec.payload {
            case .reply(let reply): reply.method.name
            case .streamHeader: Methods.Image.name
            default: nil
            }
        })
        #expect(requested == Set(Methods.all.map { $0.name }))
        #expect(answered == Set(Methods.all.map { $0.name }))
    }

    @Test("encoding each catalogued value gives exactly the committed bytes",
          arguments: VectorCatalog.all.map(\.name))
    func encodingMatchesFile(name: String) throws {
        let spec = try #require(VectorCatalog.all.first { $0.name == name })
        let file = try VectorFile.load(VectorFile.url(for: name))
        let frame = try spec.frameBytes(using: FrameEncoder())
        #expect(Hex.encode(frame) == file.frameHex)
        #expect(Hex.encode(frame.dropFirst(12)) == file.payloadHex)
        #expect(file.length == frame.count - 4)
        #expect(try VectorFile.render(spec) == String(contentsOf: VectorFile.url(for: name), encoding: .utf8))
    }

    @Test("decoding each committed frame gives the header and the value written in the file",
          arguments: VectorCatalog.all.map(\.name))
    func decodingMatchesFile(name: String) throws {
        let file = try VectorFile.load(VectorFile.url(for: name))
        let bytes = try #require(Hex.decode(file.frameHex))
        var decoder = FrameDecoder()
        decoder.append(bytes)
        let frame = try #require(try decoder.nextFrame())
        #expect(try decoder.nextFrame() == nil)
        #expect(frame.header == file.header)
        #expect(Hex.encode(frame.payload) == file.payloadHex)

        let fromJSON = try VectorJSON.payload(
            kind: file.kind, flags: file.header.flags, method: file.method, valueJSON: file.valueJSON, rawPayload: frame.payload
        )
        let fromCBOR = try decodePayload(frame, method: file.method, decoder: CBORDecoder())
        #expect(Self.equal(fromJSON, fromCBOR), "JSON value and CBOR payload disagree in \(name)")
        if let diagnostic = file.payloadDiagnostic {
            #expect(try CBORItem.parse(frame.payload).diagnostic == diagnostic)
        }
    }

    @Test("typed_value alone re-encodes to payload_hex with a generic JSON-to-CBOR encoder that knows no Swift type",
          arguments: VectorCatalog.all.map(\.name))
    func typedValueIsSelfDescribing(name: String) throws {
        let file = try VectorFile.load(VectorFile.url(for: name))
        guard let json = file.typedValueJSON else {
            #expect([FrameKind.streamChunk, .cancel].contains(file.kind), "only raw payloads have no typed_value")
            return
        }
        let typed = try JSONDecoder().decode(TypedJSON.self, from: json)
        #expect(Hex.encode(try GenericCBOR.encode(typed)) == file.payloadHex)
        // The typed form is the plain `value` with its typed leaves marked, nothing else.
        let plain = try JSONDecoder().decode(TypedJSON.self, from: try #require(file.valueJSON))
        #expect(typed.untyped == plain)
    }

    @Test("the generic encoder's date arithmetic and float choice agree with the library")
    func genericDates() throws {
        for milliseconds: Int64 in [0, 1, -1, 500, -86_400_000, 1_714_849_200_000, 1_715_463_000_250, 951_782_400_123, -2_208_988_800_000] {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = VectorJSON.rfc3339(date)
            #expect(try GenericCBOR.epochMilliseconds(text) == milliseconds, "\(text)")
            var output = CBOROutput()
            defer { output.deallocate() }
            try CBORDateForm.append(date, to: &output)
            let expected = Array(output.bytes)
            #expect(try GenericCBOR.encode(.object(["$date": .string(text)])) == expected, "\(text)")
        }
    }

    private func decodePayload(_ frame: Frame, method: (any RPCMethod.Type)?, decoder: CBORDecoder) throws -> VectorPayload {
        switch try Message(frame: frame, using: decoder) {
        case .hello(let hello): return .hello(hello)
        case .request(_, let request): return .request(request)
        case .response(_, let payload):
            return .reply(try #require(method).reply(decoding: payload))
        case .streamStart(_, let header): return .streamHeader(header)
        case .error(_, let body): return .error(body)
        case .streamChunk(_, let bytes): return .streamChunk(bytes)
        case .streamEnd(_, let end): return .streamEnd(end)
        case .cancel: return .cancel
        }
    }

    static func equal(_ lhs: VectorPayload, _ rhs: VectorPayload) -> Bool {
        switch (lhs, rhs) {
        case (.hello(let a), .hello(let b)): a == b
        case (.request(let a), .request(let b)): a == b
        case (.reply(let a), .reply(let b)): a == b
        case (.streamHeader(let a), .streamHeader(let b)): a == b
        case (.error(let a), .error(let b)): a == b
        case (.streamChunk(let a), .streamChunk(let b)): a == b
        case (.streamEnd(let a), .streamEnd(let b)): a == b
        case (.cancel, .cancel): true
        default: false
        }
    }
}
