import FoundationEssentials
import LigasDomain
import LigasRemote

/// The optional config file: `KEY=value` lines with the `LIGASD_*` names, `#` comments and
/// blank lines allowed. The same format systemd reads with `EnvironmentFile=`.
enum ConfigFile {
    /// The values, by `LIGASD_*` name.
    static func read(path: String) throws -> [String: String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(key: "LIGASD_CONFIG", value: path, expected: "a readable UTF-8 file")
        }
        return try parse(text)
    }

    static func parse(_ text: String) throws -> [String: String] {
        var settings: [String: String] = [:]
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError(key: "line \(number + 1)", value: line, expected: "KEY=value")
            }
            let name = line[..<equals].trimmingWhitespace()
            guard let setting = DaemonSetting.named(name) else {
                throw ConfigurationError(key: "line \(number + 1)", value: name, expected: "a known LIGASD_* setting name (ligasd --help lists them)")
            }
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            settings[setting.name] = value
        }
        return settings
    }
}

/// The API key, from systemd credentials (`LoadCredential=api-key:…` puts it in
/// `$CREDENTIALS_DIRECTORY/api-key`) or, failing that, `LIGASD_API_KEY`.
enum CredentialLoading {
    static func apiKey(environment: [String: String]) throws -> APIKey? {
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            let path = directory + "/api-key"
            if FileManager.default.fileExists(atPath: path) {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ConfigurationError(key: "CREDENTIALS_DIRECTORY/api-key", value: "<unreadable>", expected: "a readable file")
                }
                return APIKey(text)
            }
        }
        return nil
    }
}
