/// The coding key used for array positions, rendered as `[n]` in error paths.
struct CBORIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

/// A map key that is not one of a type's `CodingKeys`, e.g. for `allKeys` of foreign maps.
struct CBORStringKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

enum CBORCodingPath {
    /// Renders a coding path the way errors show it: `value[3].name`.
    static func render(_ path: some Sequence<any CodingKey>) -> String {
        var result = ""
        for key in path {
            if key is CBORIndexKey, let index = key.intValue {
                result += "[\(index)]"
            } else {
                if !result.isEmpty { result += "." }
                result += key.stringValue
            }
        }
        return result
    }
}
