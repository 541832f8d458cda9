import FoundationEssentials
import LigasDomain

/// JSON decoding shared by the mappers: ISO 8601 dates with or without milliseconds, and
/// every failure turned into `LigasError.invalidData` naming the offending field.
enum PayloadDecoding {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = parseISO8601(text) { return date }
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "not an ISO 8601 date: \(text)"))
        }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw LigasError.invalidData(describe(error))
        } catch {
            throw LigasError.invalidData("malformed JSON")
        }
    }

    static func parseISO8601(_ text: String) -> Date? {
        (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
    }

    /// Absolute URLs stay as they are; relative references resolve against the source's base URL.
    static func url(_ text: String, field: String, in context: MappingContext) throws -> URL {
        guard !text.isEmpty, let url = URL(string: text, relativeTo: context.baseURL)?.absoluteURL,
              url.scheme != nil
        else { throw LigasError.invalidData("\(field) is not a URL: \(text)") }
        return url
    }

    /// Foundation's words for a value outside an enum ("Cannot initialize Position from invalid
    /// String value striker") name a Swift type; users get "unknown value 'striker'". Our own
    /// descriptions ("not an ISO 8601 date: …") stay as they are.
    static func plain(_ description: String) -> String {
        guard description.hasPrefix("Cannot initialize "), let value = description.firstRange(of: " value ") else { return description }
        return "unknown value '\(description[value.upperBound...])'"
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce(into: "") { result, key in
                if let index = key.intValue { result += "[\(index)]" } else {
                    result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context.codingPath)
            return "missing field \(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)"
        case .typeMismatch(let type, let context):
            return "wrong type at \(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "null at \(path(context.codingPath)): expected \(type)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "malformed JSON" : "bad value at \(path(context.codingPath)): \(plain(context.debugDescription))"
        @unknown default:
            return "undecodable payload"
        }
    }
}

// MARK: - Lenient fields of third-party payloads

/// A whole number sent as a number or as text ("2"): FlashLive writes scores as text.
struct LenientInt: Decodable, Hashable {
    let value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = Int(text.trimmingWhitespace())
        } else if container.decodeNil() {
            value = nil
        } else {
            throw DecodingError.typeMismatch(Int.self, .init(codingPath: decoder.codingPath, debugDescription: "not a number"))
        }
    }
}

/// Lower case without diacritics, for comparing names ("Cumbayá" and "cumbaya"): combining marks
/// go, and the accented Latin letters of Spanish and its neighbours lose their accent. (Foundation's
/// `folding(options:locale:)` does it through ICU, which the daemon does not link.)
struct Folded {
    let text: String
    init(_ text: String) {
        var folded = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars where scalar.properties.generalCategory != .nonspacingMark {
            folded.append(Self.unaccented[scalar] ?? scalar)
        }
        self.text = String(folded)
    }

    private static let unaccented = Dictionary(
        uniqueKeysWithValues: zip("àáâãäåçèéêëìíîïñòóôõöøùúûüýÿ".unicodeScalars, "aaaaaaceeeeiiiinoooooouuuuyy".unicodeScalars))
}

/// An id sent as text ("41301") or as a number (41301).
struct LenientText: Decodable, Hashable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.text = text
        } else {
            self.text = String(try container.decode(Int.self))
        }
    }
}
