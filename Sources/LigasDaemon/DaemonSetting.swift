import FoundationEssentials
import Glibc
import LigasDomain
import LigasProtocol
import LigasRemote
import LigasServer
import LigasSystemd
import Logging

/// One ligasd setting, declared once: its name (`--socket-mode` on the command line,
/// `LIGASD_SOCKET_MODE` in the environment and the config file), its default, its help text and
/// how its value is read into a `DaemonConfiguration`.
///
/// `DaemonSetting.all` is the only list of settings. The config file and the environment are read
/// through it, ligasd's flags (`SettingFlags`) and so its `--help` and man page take their help
/// texts from it, and README's configuration table is checked against `markdownTable`.
public struct DaemonSetting: Sendable {
    /// The long option (`socket-mode` for `--socket-mode`); nil for the API key, never a flag.
    public let flag: String?
    /// `LIGASD_*`: the name in the environment and the config file.
    public let name: String
    /// The default, for README and help (computed from `DaemonConfiguration()` where it can be).
    public let defaultText: DefaultText
    /// What it does, in README's words (Markdown: `code` in backticks).
    public let meaning: String
    let apply: @Sendable (inout DaemonConfiguration, String) throws -> Void

    public enum DefaultText: Sendable, Equatable {
        /// A value as written in a setting (`0660`).
        case value(String)
        /// Words describing it (`the bundled sample data`).
        case words(String)
        case none
    }

    /// The help text of the flag: the meaning, its default and the environment name.
    public var help: String {
        let plainMeaning = Self.plain(meaning)
        // Capitalised as a sentence, unless it starts with a code word (`trace`): that is a value, typed as shown.
        var text = meaning.hasPrefix("`") ? plainMeaning : plainMeaning.prefix(1).uppercased() + plainMeaning.dropFirst()
        switch defaultText {
        case .value(let value): text += "; default \(value)"
        case .words(let words): text += "; default: \(Self.plain(words))"
        case .none: break
        }
        return text + " (env: \(name))."
    }

    /// README's row for the setting.
    public var markdownRow: String {
        let shownDefault = switch defaultText {
        case .value(let value): "`\(value)`"
        case .words(let words): words
        case .none: "—"
        }
        return "| `\(name)` | \(shownDefault) | \(meaning) |"
    }

    /// README's configuration table, header included.
    public static var markdownTable: String {
        (["| setting | default | meaning |", "| --- | --- | --- |"] + all.map(\.markdownRow)).joined(separator: "\n")
    }

    public static func named(_ name: String) -> DaemonSetting? {
        all.first { $0.name == name }
    }

    public static func flagged(_ flag: String) -> DaemonSetting? {
        all.first { $0.flag == flag }
    }

    private static func plain(_ markdown: String) -> String {
        markdown.replacing("`", with: "")
    }
}

extension DaemonSetting {
    /// Every setting, in README's order.
    public static let all: [DaemonSetting] = [
        text("socket", .words("the socket systemd passes"),
             "bind this path instead of using the socket systemd passes; a stale socket file is replaced, a live one never",
             \.socketPath),
        DaemonSetting(
            flag: "socket-mode", defaultText: .value(String(defaults.socketMode, radix: 8).leftPadded(to: 4)),
            meaning: "mode of a socket bound with `--socket`"
        ) { configuration, text in
            guard let mode = mode_t(text, radix: 8), mode <= 0o777 else { throw expected("an octal mode such as 0660") }
            configuration.socketMode = mode
        },
        choice("source", "what serves Serie A and B: `sample` (the bundled sample data), `ligas-rest` (at `LIGASD_REMOTE`), `seed` (only the league `seed`, at `LIGASD_SEED_REMOTE`) or `rapidapi` (FlashLive and Transfermarkt; needs the API key)",
               expected: "sample, ligas-rest, seed or rapidapi", \.source,
               { text -> DaemonConfiguration.Source?? in DaemonConfiguration.Source(rawValue: text).map(Optional.some) },
               defaultText: .words("`sample`, or `ligas-rest` when `LIGASD_REMOTE` is set")),
        url("remote", .words("the bundled sample data"),
            "base URL of the `ligas-rest` source (`http://`, `https://`, `file://` or a path)") { $0.remote = $1 },
        url("seed-remote", .none,
            "base URL of a `seed-football-api` source; its league is listed as `seed` (`ligas-client teams seed`)") { $0.seedRemote = $1 },
        url("flashlive-url", .value(FlashLive.defaultBaseURL.absoluteString),
            "base URL of FlashLive (source `rapidapi`), for tests and mirrors") { $0.flashLiveURL = $1 },
        url("transfermarkt-url", .value(Transfermarkt.defaultBaseURL.absoluteString),
            "base URL of Transfermarkt (source `rapidapi`), for tests and mirrors") { $0.transfermarktURL = $1 },
        DaemonSetting(
            flag: "flashlive-seasons", defaultText: .words("found in FlashLive's `/v1/tournaments/list`"),
            meaning: "FlashLive season and stage ids by league, `serie-a=SEASON/STAGE,serie-b=SEASON/STAGE`, when FlashLive's list names the leagues otherwise"
        ) { configuration, text in
            configuration.flashLiveSeasons = try text.split(separator: ",").map { entry in
                let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
                let ids = parts.count == 2 ? parts[1].split(separator: "/").map(String.init) : []
                guard parts.count == 2, ids.count == 2, !parts[0].isEmpty, ids.allSatisfy({ !$0.isEmpty }) else {
                    throw expected("LEAGUE=SEASON/STAGE pairs separated by commas, e.g. serie-a=IaFDigtm/OO37de6i")
                }
                return LeagueSeason(league: parts[0], seasonID: ids[0], stageID: ids[1])
            }
        },
        count("monthly-requests",
              "requests ligasd may make to each RapidAPI provider per calendar month (UTC); past it, cached data or `quotaExceeded`. Set it to your plan's quota",
              \.monthlyRequests),  // a u64 in `status`: any Int fits
        DaemonSetting(
            flag: nil, named: "LIGASD_API_KEY", defaultText: .none,
            meaning: "the API key, unless `$CREDENTIALS_DIRECTORY/api-key` (systemd `LoadCredential=`) exists, which wins; never a flag, never logged"
        ) { configuration, text in
            configuration.apiKey = try APIKey.configured(text, in: "LIGASD_API_KEY") ?? configuration.apiKey
        },
        DaemonSetting(
            flag: "cache", defaultText: .words("`$CACHE_DIRECTORY`, `$XDG_CACHE_HOME/ligasd` or `~/.cache/ligasd`, `/cache.sqlite`"),
            meaning: "the SQLite cache file"
        ) { configuration, text in
            configuration.cacheFile = URL(fileURLWithPath: text)
        },
        DaemonSetting(
            flag: "max-cache-age", defaultText: .value(String(Int(defaults.maxCacheAge))),
            meaning: "seconds cached data stays valid (`604800`: 7 days)"
        ) { configuration, text in
            configuration.maxCacheAge = Double(try seconds(text) / .milliseconds(1)) / 1000
        },
        duration("remote-first-budget",
                 "seconds `matches` waits for the remote before fresh cached matches answer instead (the fetch goes on in the background)",
                 \.remoteFirstBudget),
        // SQLite's largest file with the cache's 64 KiB pages (2³² pages); the file's own cap is
        // this plus the feeds' allowance, which must not overflow.
        count("image-cache-bytes", "total size of cached images (least recently used go first)", upTo: 1 << 48, \.imageCacheBytes),
        // A connection is a file descriptor, an Int32.
        count("max-connections", "more are refused with `tooManyRequests`", upTo: Int(Int32.max), \.limits.maxConnections),
        count("max-connections-per-uid",
              "connections of one user (uid, from `SO_PEERCRED`); more are refused with `tooManyRequests` (`details.cap` = `connectionsPerUID`)",
              upTo: Int(Int32.max), \.limits.maxConnectionsPerUID),
        // Both are u32 in the server's hello (PROTOCOL.md §8): more trapped at the first connection.
        count("max-in-flight", "requests per connection (announced in hello)", upTo: Int(UInt32.max), \.limits.maxInFlightPerConnection),
        count("max-frame-size", "largest frame accepted (`frameTooLarge` and close beyond)",
              from: ProtocolLimits.minimumMaxFrameSize, upTo: Int(UInt32.max), \.limits.maxFrameSize),
        // 0 would close every connection at once: never what a user means (`LIGASD_IDLE_EXIT=0`, never, is another thing).
        duration("handshake-timeout", "seconds a client has to say hello (at least `0.001`)", from: .milliseconds(1), \.limits.handshakeTimeout),
        duration("idle-connection-timeout", "seconds an idle connection is kept (at least `0.001`)", from: .milliseconds(1),
                 \.limits.idleConnectionTimeout),
        count("max-output-bytes", "unread output a connection may pile up before it is dropped", \.limits.maxOutputBytes),
        DaemonSetting(
            flag: "idle-exit", defaultText: .value(defaults.idleExit.map(\.secondsText) ?? "0"),
            meaning: "when socket-activated, exit after this many idle seconds (`0`: never)"
        ) { configuration, text in
            let idle = try seconds(text)
            configuration.idleExit = idle == .zero ? nil : idle
        },
        duration("shutdown-grace",
                 "seconds in-flight requests get on SIGTERM; requests already sent but not yet started are answered `shuttingDown` (retry), and those still running when it is over `cutOff` (a client that does not read gets \(ServerLimits().cutOffDeliveryLimit.secondsText) s more to take it)",
                 \.shutdownGrace),
        choice("log-target", "where the log goes: `journal`, `stderr`, or `auto` (the journal when it is there)",
               expected: "auto, journal or stderr", \.logTarget, LogTarget.init(rawValue:), \.rawValue),
        choice("log-level", "`trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`",
               expected: "trace, debug, info, notice, warning, error or critical", \.logLevel, Logger.Level.init(rawValue:), \.rawValue),
    ]
}

// MARK: - Kinds of settings

extension DaemonSetting {
    /// The built-in defaults the help texts show, made once: each `DaemonConfiguration()` reads
    /// the environment, and ligasd builds `all` at every start.
    private static let defaults = DaemonConfiguration()

    init(
        flag: String?, named name: String? = nil, defaultText: DefaultText, meaning: String,
        apply: @escaping @Sendable (inout DaemonConfiguration, String) throws -> Void
    ) {
        // Not `replacing(_:with:)`: its generic collection algorithm cost ~14k instructions per setting at every start.
        let name = name ?? flag.map { "LIGASD_" + String($0.uppercased().map { $0 == "-" ? "_" : $0 }) } ?? ""
        self.flag = flag
        self.name = name
        self.defaultText = defaultText
        self.meaning = meaning
        self.apply = { configuration, text in
            do {
                try apply(&configuration, text)
            } catch let error as ExpectedValue {
                throw ConfigurationError(key: name, value: text, expected: error.expected)
            }
        }
    }

    /// A path; empty means unset.
    private static func text(
        _ flag: String, _ defaultText: DefaultText, _ meaning: String, _ keyPath: WritableKeyPath<DaemonConfiguration, String?> & Sendable
    ) -> DaemonSetting {
        DaemonSetting(flag: flag, defaultText: defaultText, meaning: meaning) { configuration, text in
            configuration[keyPath: keyPath] = text.isEmpty ? nil : text
        }
    }

    /// An `http://`, `https://` or `file://` URL, or an absolute path; empty keeps the default.
    private static func url(
        _ flag: String, _ defaultText: DefaultText, _ meaning: String,
        _ set: @escaping @Sendable (inout DaemonConfiguration, URL) -> Void
    ) -> DaemonSetting {
        DaemonSetting(flag: flag, defaultText: defaultText, meaning: meaning) { configuration, text in
            guard !text.isEmpty else { return }
            if text.hasPrefix("/") { return set(&configuration, URL(fileURLWithPath: text, isDirectory: true)) }
            guard let url = URL(string: text), ["http", "https", "file"].contains(url.scheme?.lowercased() ?? "") else {
                throw expected("an http://, https:// or file:// URL, or an absolute path")
            }
            set(&configuration, url)
        }
    }

    /// A whole number from `minimum` to `maximum`: the bound of whatever the count goes to.
    private static func count(
        _ flag: String, _ meaning: String, from minimum: Int = 1, upTo maximum: Int = .max,
        _ keyPath: WritableKeyPath<DaemonConfiguration, Int> & Sendable
    ) -> DaemonSetting {
        DaemonSetting(flag: flag, defaultText: .value(String(defaults[keyPath: keyPath])), meaning: meaning) { configuration, text in
            guard let value = Int(text), (minimum...maximum).contains(value) else {
                throw expected("a whole number from \(minimum) to \(maximum)")
            }
            configuration[keyPath: keyPath] = value
        }
    }

    /// Seconds, fractions allowed, of at least `minimum`.
    private static func duration(
        _ flag: String, _ meaning: String, from minimum: Duration = .zero, _ keyPath: WritableKeyPath<DaemonConfiguration, Duration> & Sendable
    ) -> DaemonSetting {
        DaemonSetting(flag: flag, defaultText: .value(defaults[keyPath: keyPath].secondsText), meaning: meaning) {
            configuration, text in
            configuration[keyPath: keyPath] = try seconds(text, from: minimum)
        }
    }

    /// One of a few words, in any case.
    private static func choice<Value: Sendable>(
        _ flag: String, _ meaning: String, expected words: String, _ keyPath: WritableKeyPath<DaemonConfiguration, Value> & Sendable,
        _ make: @escaping @Sendable (String) -> Value?, _ word: (Value) -> String
    ) -> DaemonSetting {
        choice(flag, meaning, expected: words, keyPath, make, defaultText: .value(word(defaults[keyPath: keyPath])))
    }

    private static func choice<Value: Sendable>(
        _ flag: String, _ meaning: String, expected words: String, _ keyPath: WritableKeyPath<DaemonConfiguration, Value> & Sendable,
        _ make: @escaping @Sendable (String) -> Value?, defaultText: DefaultText
    ) -> DaemonSetting {
        DaemonSetting(flag: flag, defaultText: defaultText, meaning: meaning) { configuration, text in
            guard let value = make(text.lowercased()) else { throw expected(words) }
            configuration[keyPath: keyPath] = value
        }
    }

    /// Seconds, fractions allowed, to the millisecond, from `minimum` to `maximumSeconds`.
    private static func seconds(_ text: String, from minimum: Duration = .zero) throws -> Duration {
        let duration = Double(text).flatMap { $0 >= 0 && $0 <= Double(maximumSeconds) ? Duration.milliseconds(Int64($0 * 1000)) : nil }
        guard let duration, duration >= minimum else { throw expected("seconds from \(minimum.secondsText) to \(maximumSeconds)") }
        return duration
    }

    /// Some 31 years; in nanoseconds (a Dispatch deadline), still far from Int64's end.
    private static let maximumSeconds = 999_999_999

    private static func expected(_ what: String) -> ExpectedValue { ExpectedValue(expected: what) }

    /// A value a setting's reader cannot take; `init` names the setting in a `ConfigurationError`.
    private struct ExpectedValue: Error {
        let expected: String
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
