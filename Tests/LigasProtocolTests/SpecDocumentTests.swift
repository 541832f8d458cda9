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

    @Test("the error table lists every code, and the kinds table every frame kind")
    func tablesAreComplete() {
        for (code, _) in ErrorCode.known {
            #expect(text.contains("| `\(code.rawValue)` |"), "\(code)")
            #expect(text.contains("\"\(code.rawValue)\""), "CDDL lists \(code)")
        }
        for kind in FrameKind.allCases {
            #expect(text.contains("| `0x0\(kind.rawValue)` | `\(kind)` |"), "\(kind)")
        }
        for method in Method.allCases {
            #expect(text.contains("| `\(method.rawValue)` |"), "\(method)")
        }
    }
}
