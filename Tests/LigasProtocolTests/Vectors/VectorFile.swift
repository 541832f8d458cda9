import Foundation
import LigasProtocol

/// One golden vector file: `Protocol/vectors/<name>.json`.
struct VectorFile {
    var name: String
    var description: String
    var kind: FrameKind
    var method: (any RPCMethod.Type)?
    var header: FrameHeader
    var length: Int
    var frameHex: String
    var payloadHex: String
    var payloadDiagnostic: String?
    /// The `value` member re-serialized, for typed decoding.
    var valueJSON: Data?
    /// The `typed_value` member re-serialized (nil for raw payloads).
    var typedValueJSON: Data?

    static func url(for name: String) -> URL {
        RepositoryPaths.vectors.appendingPathComponent("\(name).json")
    }

    /// Renders the file for a spec. The layout is fixed so regenerating is stable.
    static func render(_ spec: VectorSpec) throws -> String {
        let frame = try spec.frameBytes()
        let payload = Array(frame.dropFirst(4 + FrameHeader.size))
        let diagnostic: String? = switch spec.payload {
        case .streamChunk, .cancel: nil
        default: try CBORItem.parse(payload).diagnostic
        }
        func quoted(_ text: String) -> String {
            String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
                .replacingOccurrences(of: "\\/", with: "/")
        }
        var lines = [
            "{",
            "  \"name\": \(quoted(spec.name)),",
            "  \"description\": \(quoted(spec.description)),",
            "  \"kind\": \(quoted(spec.kind.description)),",
            "  \"method\": \(spec.method.map { quoted($0.name) } ?? "null"),",
            "  \"header\": {\"length\": \(frame.count - 4), \"version\": \(ProtocolVersion.current), "
                + "\"kind\": \(quoted(spec.kind.description)), \"kindCode\": \(spec.kind.rawValue), "
                + "\"flags\": \(spec.flags.rawValue), \"requestId\": \(spec.requestID)},",
            "  \"frame_hex\": \(quoted(Hex.encode(frame))),",
            "  \"payload_hex\": \(quoted(Hex.encode(payload))),",
            "  \"payload_diagnostic\": \(diagnostic.map(quoted) ?? "null"),",
        ]
        let value = try VectorJSON.valueJSON(spec.payload)
        lines.append("  \"value\": " + (value?.replacingOccurrences(of: "\n", with: "\n  ") ?? "null") + ",")
        let typed = try TypedValue.json(spec.payload, bytes: payload)
        lines.append("  \"typed_value\": " + (typed?.replacingOccurrences(of: "\n", with: "\n  ") ?? "null"))
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func load(_ url: URL) throws -> VectorFile {
        let data = try Data(contentsOf: url)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let name = object["name"] as? String,
              let description = object["description"] as? String,
              let kindName = object["kind"] as? String,
              let header = object["header"] as? [String: Any],
              let frameHex = object["frame_hex"] as? String,
              let payloadHex = object["payload_hex"] as? String
        else { throw VectorFormatError("\(url.lastPathComponent): missing members") }
        guard let kind = FrameKind.allCases.first(where: { $0.description == kindName }),
              let version = header["version"] as? Int, let kindCode = header["kindCode"] as? Int,
              kindCode == Int(kind.rawValue),
              let flags = header["flags"] as? Int, let requestID = header["requestId"] as? Int,
              let length = header["length"] as? Int
        else { throw VectorFormatError("\(url.lastPathComponent): bad header") }
        let method = (object["method"] as? String).flatMap { Methods.named($0) }
        let value = object["value"].flatMap { $0 is NSNull ? nil : $0 }
        guard object.keys.contains("typed_value") else { throw VectorFormatError("\(url.lastPathComponent): no typed_value") }
        let typedValue = object["typed_value"].flatMap { $0 is NSNull ? nil : $0 }
        return VectorFile(
            name: name, description: description, kind: kind, method: method,
            header: FrameHeader(
                version: UInt8(version), kind: kind, flags: FrameFlags(rawValue: UInt16(flags)), requestID: UInt32(requestID)
            ),
            length: length, frameHex: frameHex, payloadHex: payloadHex,
            payloadDiagnostic: object["payload_diagnostic"] as? String,
            valueJSON: try value.map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) },
            typedValueJSON: try typedValue.map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) }
        )
    }
}
