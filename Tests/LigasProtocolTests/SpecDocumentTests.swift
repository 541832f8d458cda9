import Foundation
import Testing
import LigasProtocol

/// PROTOCOL.md must agree with the code and the vectors it quotes.
@Suite("Spec document")
struct SpecDocumentTests {
    let text: String

    init() throws {
        text = try String(contentsOf: RepositoryPaths.protocolSpec, encoding: .utf8)
    }

    /// Hex blocks that follow a "(vector: NAME)" line in the worked example.
    private func quotedFrames() -> [(name: String, hex: String)] {
        var frames: [(String, String)] = []
        let lines = text.components(separatedBy: "\n")
        var index = 0
        while index < lines.count {
            if let range = lines[index].range(of: #"\(vector: ([a-z0-9-]+)\)"#, options: .regularExpression) {
                let name = String(lines[index][range].dropFirst(9).dropLast())
                var block: [String] = []
                var cursor = index + 2 // skip the opening fence
                while cursor < lines.count, lines[cursor] != "```" {
                    block.append(lines[cursor])
                    cursor += 1
                }
                frames.append((name, block.joined(separator: " ")))
                index = cursor
            }
            index += 1
        }
        return frames
    }

    @Test("every frame quoted in the worked example is byte-exact with its vector")
    func workedExampleMatchesVectors() throws {
        let frames = quotedFrames()
        #expect(frames.count == 15)
        for (name, hex) in frames {
            let file = try VectorFile.load(VectorFile.url(for: name))
            #expect(Hex.decode(hex).map(Hex.encode) == file.frameHex, "\(name)")
        }
    }

    @Test("the describe response's frame length quoted in section 6 and the worked example is the vector's L")
    func describeLengthQuoted() throws {
        let length = try VectorCatalog.describeFrameLength
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("`{\"bytes\": \"\(length)\", \"maxFrameSize\": \"4096\"}`"), "section 6")
        #expect(flat.contains("The response would be a \(length)-byte frame"), "the worked example")
    }

    @Test("the rules of 3.4, 3.5 and 8 cite the decoder's depth limit, the hello minimum and vectors that exist")
    func rulesAgreeWithCode() throws {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let depth = CBORDecoder.maxDepth
        #expect(flat.contains("This implementation accepts \(depth) levels and refuses an array, map or tag at level \(depth + 1)"))
        #expect(flat.contains("| nesting depth | — | \(depth) |"))
        #expect(flat.contains("A `hello` whose `maxFrameSize` is below \(ProtocolLimits.minimumMaxFrameSize)"))
        let cited = ["error-bad-request-truncated", "hello-client-invalid-limits", "error-hello-refused"]
        for name in cited {
            #expect(flat.contains(name), "\(name) is cited")
            #expect(FileManager.default.fileExists(atPath: VectorFile.url(for: name).path), "\(name) exists")
        }
        let truncated = try VectorFile.load(VectorFile.url(for: "error-bad-request-truncated"))
        let body = try CBORDecoder().decode(ErrorBody.self, from: #require(Hex.decode(truncated.payloadHex)))
        let offset = try #require(body.details?["offset"])
        #expect(flat.contains("e.g. `{\"offset\": \"\(offset)\"}` for a request cut short"))
    }

    @Test("the error table lists every code, and the kinds table every frame kind")
    func tablesAreComplete() {
        for (code, _) in ErrorCode.known {
            #expect(text.contains("| `\(code.rawValue)` |"), "\(code)")
            #expect(text.contains("\"\(code.rawValue)\""), "CDDL lists \(code)")
        }
        for kind in FrameKind.allCases {
            #expect(text.contains("| `0x0\(kind.rawValue)` | `\(kind)` |"), "\(kind)")
        }
        for method in Methods.all {
            #expect(text.contains("| `\(method.name)` |"), "\(method.name)")
        }
    }

    @Test("every error vector carries only the details keys §9's table names for its code")
    func errorVectorsCarryOnlyTabledDetails() throws {
        // By code, the `details.KEY` the code's row of the table names.
        var allowed: [String: Set<String>] = [:]
        for row in text.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|")
            guard cells.count >= 3 else { continue }
            let code = cells[0].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let keys = cells[1].matches(of: /details\.([A-Za-z]+)/).map { String($0.output.1) }
            allowed[code, default: []].formUnion(keys)
        }
        var checked = 0
        for spec in VectorCatalog.all {
            guard case .error(let body) = spec.payload else { continue }
            let keys = Set(body.details?.keys.map { $0 } ?? [])
            #expect(keys.isSubset(of: allowed[body.code.rawValue] ?? []), "\(spec.name): \(keys.sorted())")
            checked += 1
        }
        #expect(checked >= 9)
    }

    @Test("the CDDL gives every integer field the signedness describe gives it (a client sized from either agrees)")
    func integerFieldsAgreeWithDescribe() throws {
        var checked = 0
        for type in InterfaceDescription.ligas.types where type.kind == .map {
            // CDDL names are the type names in kebab case: PreviousMatch is previous-match.
            let rule = type.name.reduce(into: "") { name, character in
                if character.isUppercase, !name.isEmpty { name += "-" }
                name += character.lowercased()
            }
            guard let start = text.range(of: "\n\(rule) *= *\\{", options: .regularExpression) else { continue }
            let rest = text[start.upperBound...]
            let block = rest[..<(rest.range(of: "\n}")?.lowerBound ?? rest.endIndex)]
            for field in type.fields ?? [] where field.type == "int" || field.type == "uint" {
                // `u32` is the CDDL's bounded uint.
                let line = "\\b\(field.name): \(field.type == "uint" ? "(uint|u32)" : "int")\\b"
                #expect(block.range(of: line, options: .regularExpression) != nil, "\(rule).\(field.name) is \(field.type)")
                checked += 1
            }
        }
        #expect(checked >= 12, "standing's nine figures and the scores are among them")
    }
}
