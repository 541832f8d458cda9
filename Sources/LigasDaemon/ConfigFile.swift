import FoundationEssentials
import LigasDomain
import LigasRemote

/// The optional config file: `LIGASD_*=value` lines in the syntax of systemd's `EnvironmentFile=`
/// (`EnvironmentFileSyntax`), so the same file serves `--config` and the units.
enum ConfigFile {
    /// The values, by `LIGASD_*` name.
    static func read(path: String) throws -> [String: String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(key: DaemonConfiguration.configFileVariable, value: path, expected: "a readable UTF-8 file")
        }
        return try parse(text)
    }

    /// A name that is no setting stops ligasd with its line: systemd would pass it on, unread.
    static func parse(_ text: String) throws -> [String: String] {
        var settings: [String: String] = [:]
        for assignment in try EnvironmentFileSyntax.assignments(in: text) {
            guard let setting = DaemonSetting.named(assignment.name) else {
                throw ConfigurationError(key: "line \(assignment.line)", value: ConfigurationError.shownName(assignment.name), expected: ConfigurationError.knownName)
            }
            settings[setting.name] = assignment.value
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
                return try APIKey.configured(text, in: "CREDENTIALS_DIRECTORY/api-key")
            }
        }
        return nil
    }
}

extension APIKey {
    /// The key as configured (nil when empty), refused when a control character is inside it.
    static func configured(_ text: String, in place: String) throws(ConfigurationError) -> APIKey? {
        guard let key = APIKey(text) else { return nil }
        guard !key.hasControlCharacter else {
            throw ConfigurationError(
                key: place, value: nil,
                expected: "a key on one line, without control characters (one is inside it; the key is not shown)")
        }
        return key
    }
}
