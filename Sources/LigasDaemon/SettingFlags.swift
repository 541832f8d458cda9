import ArgumentParser

/// ligasd's command-line form of its settings: one option per `DaemonSetting` that has a flag.
///
/// ArgumentParser needs a stored property per option, so each setting appears here once more, as
/// a name and nothing else: ArgumentParser spells the property `maxInFlight` as `--max-in-flight`,
/// the help text is the setting's, and `values` finds each property's setting by that name. A
/// property without a setting stops ligasd at start; `SettingFlagsTests` checks both directions.
public struct SettingFlags: ParsableArguments {
    @Option(help: .setting("socket")) var socket: String?
    @Option(help: .setting("socket-mode")) var socketMode: String?
    @Option(help: .setting("source")) var source: String?
    @Option(help: .setting("remote")) var remote: String?
    @Option(help: .setting("seed-remote")) var seedRemote: String?
    @Option(help: .setting("flashlive-url")) var flashliveUrl: String?
    @Option(help: .setting("transfermarkt-url")) var transfermarktUrl: String?
    @Option(help: .setting("flashlive-seasons")) var flashliveSeasons: String?
    @Option(help: .setting("monthly-requests")) var monthlyRequests: String?
    @Option(help: .setting("cache")) var cache: String?
    @Option(help: .setting("max-cache-age")) var maxCacheAge: String?
    @Option(help: .setting("remote-first-budget")) var remoteFirstBudget: String?
    @Option(help: .setting("image-cache-bytes")) var imageCacheBytes: String?
    @Option(help: .setting("max-connections")) var maxConnections: String?
    @Option(help: .setting("max-connections-per-uid")) var maxConnectionsPerUid: String?
    @Option(help: .setting("max-in-flight")) var maxInFlight: String?
    @Option(help: .setting("max-frame-size")) var maxFrameSize: String?
    @Option(help: .setting("handshake-timeout")) var handshakeTimeout: String?
    @Option(help: .setting("idle-connection-timeout")) var idleConnectionTimeout: String?
    @Option(help: .setting("max-output-bytes")) var maxOutputBytes: String?
    @Option(help: .setting("idle-exit")) var idleExit: String?
    @Option(help: .setting("shutdown-grace")) var shutdownGrace: String?
    @Option(help: .setting("log-target")) var logTarget: String?
    @Option(help: .setting("log-level")) var logLevel: String?

    public init() {}

    /// The values given on the command line, by `LIGASD_*` name.
    public var values: [String: String] {
        var values: [String: String] = [:]
        for (flag, value) in Self.options(of: self) {
            guard let setting = DaemonSetting.flagged(flag) else {
                preconditionFailure("SettingFlags.\(flag) has no DaemonSetting")
            }
            if let value { values[setting.name] = value }
        }
        return values
    }

    /// Every option property, by its long name (`maxInFlight` → `max-in-flight`), with its value.
    static func options(of flags: SettingFlags) -> [(flag: String, value: String?)] {
        Mirror(reflecting: flags).children.compactMap { child in
            guard let label = child.label, let option = child.value as? Option<String?> else { return nil }
            return (longName(ofProperty: label), option.wrappedValue)
        }
    }

    /// ArgumentParser's spelling: `_maxConnectionsPerUid` (the wrapper's storage) → `max-connections-per-uid`.
    static func longName(ofProperty label: String) -> String {
        var name = ""
        for character in label.drop(while: { $0 == "_" }) {
            if character.isUppercase {
                name += "-" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }
}

extension ArgumentHelp {
    /// The help text of the setting with this flag.
    fileprivate static func setting(_ flag: String) -> ArgumentHelp {
        ArgumentHelp(DaemonSetting.flagged(flag)?.help ?? "")
    }
}
