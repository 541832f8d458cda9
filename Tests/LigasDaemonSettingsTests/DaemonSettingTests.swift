import ArgumentParser
import Foundation
import LigasDaemon
import LigasRemote
import LigasTestSupport
import Testing

@Suite("ligasd's settings: one declaration")
struct DaemonSettingTests {
    @Test("README's configuration table is the one DaemonSetting.all gives")
    func readmeTable() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "| setting | default | meaning |"), "README has no settings table")
        let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        #expect(table == DaemonSetting.markdownTable, "README's table must read:\n\(DaemonSetting.markdownTable)")
    }

    @Test("Every setting but the API key has its flag, named after it, with its help text; no flag lacks a setting")
    func flags() throws {
        for setting in DaemonSetting.all {
            guard let flag = setting.flag else { continue }
            #expect(setting.name == "LIGASD_" + flag.uppercased().replacingOccurrences(of: "-", with: "_"))
            let parsed = try SettingFlags.parse(["--\(flag)", "value"])
            #expect(parsed.values == [setting.name: "value"], "--\(flag)")
        }
        // One line per option, unwrapped; a long option's help starts on the line after its name.
        let lines = SettingFlags.helpMessage(columns: 10_000).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for setting in DaemonSetting.all {
            guard let flag = setting.flag else { continue }
            let at = try #require(lines.firstIndex { $0.hasPrefix("--\(flag) <") }, "--\(flag) in the help")
            let entry = lines[at...].prefix(2).joined(separator: " ")
            #expect(entry.contains(setting.help), "help of --\(flag): \(entry)")
        }
        #expect(lines.filter { $0.hasPrefix("--") }.count == DaemonSetting.all.filter { $0.flag != nil }.count)
    }

    @Test("A help text starts with a capital, unless it starts with a value to type as shown (trace, not Trace)")
    func helpCapitals() {
        #expect(DaemonSetting.named("LIGASD_LOG_LEVEL")?.help.hasPrefix("trace, debug, info,") == true)
        #expect(DaemonSetting.named("LIGASD_SOCKET_MODE")?.help.hasPrefix("Mode of a socket bound with --socket") == true)
    }

    @Test("The API key is never a flag")
    func apiKeyIsNoFlag() {
        #expect(DaemonSetting.named("LIGASD_API_KEY")?.flag == nil)
        #expect(throws: (any Error).self) { try SettingFlags.parse(["--api-key", "secret"]) }
    }

    @Test("Defaults, as README gives them")
    func defaults() throws {
        let configuration = try DaemonConfiguration.resolve(environment: [:])
        #expect(configuration.socketPath == nil)
        #expect(configuration.socketMode == 0o660)
        #expect(configuration.maxCacheAge == 604_800)
        #expect(configuration.idleExit == .seconds(60))
        #expect(configuration.shutdownGrace == .seconds(10))
        #expect(configuration.limits.maxConnections == 256)
        #expect(configuration.limits.maxConnectionsPerUID == 128)
        #expect(configuration.limits.maxFrameSize == 1_048_576)
        #expect(configuration.remoteFirstBudget == .milliseconds(1500))
        #expect(configuration.logTarget == .auto)
        #expect(configuration.logLevel == .info)
        #expect(configuration.apiKey == nil)
        #expect(DaemonSetting.named("LIGASD_IDLE_EXIT")?.markdownRow.contains("| `60` |") == true)
    }

    @Test("Precedence: command line, environment, config file, defaults")
    func precedence() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("ligasd.conf")
        try """
            # a comment
            LIGASD_MAX_CONNECTIONS=10
            LIGASD_MAX_IN_FLIGHT = 11
            LIGASD_LOG_LEVEL="debug"

            LIGASD_SOCKET_MODE=0600
            """.write(to: file, atomically: true, encoding: .utf8)
        let environment = ["LIGASD_CONFIG": file.path, "LIGASD_MAX_IN_FLIGHT": "21", "LIGASD_IDLE_EXIT": "0", "LIGASD_SOCKET_MODE": "0640"]
        let configuration = try DaemonConfiguration.resolve(
            commandLine: try SettingFlags.parse(["--socket-mode", "0666"]).values, environment: environment)

        #expect(configuration.limits.maxConnections == 10)        // file
        #expect(configuration.limits.maxInFlightPerConnection == 21)  // environment over file
        #expect(configuration.socketMode == 0o666)                 // command line over both
        #expect(configuration.logLevel == .debug)                  // quotes dropped, as EnvironmentFile= does
        #expect(configuration.idleExit == nil)                     // 0: never
        #expect(configuration.limits.maxOutputBytes == 8 << 20)    // default
    }

    @Test("The API key: $CREDENTIALS_DIRECTORY/api-key wins over LIGASD_API_KEY (environment or file)")
    func apiKey() throws {
        let directory = TemporaryDirectory()
        #expect(try DaemonConfiguration.resolve(environment: ["LIGASD_API_KEY": "from-env"]).apiKey == APIKey("from-env"))
        try "from-credentials\n".write(to: directory.url.appendingPathComponent("api-key"), atomically: true, encoding: .utf8)
        let configuration = try DaemonConfiguration.resolve(
            environment: ["LIGASD_API_KEY": "from-env", "CREDENTIALS_DIRECTORY": directory.url.path])
        #expect(configuration.apiKey == APIKey("from-credentials"))
        #expect("\(configuration.apiKey!)" == "<redacted>")
    }

    @Test("An API key with a control character inside it (a key file of two lines) stops ligasd, the key not shown; blanks around it are trimmed")
    func apiKeyOnOneLine() throws {
        let directory = TemporaryDirectory()
        let expected = "a key on one line, without control characters (one is inside it; the key is not shown)"
        try "s3cret-key\nsecond line\n".write(to: directory.url.appendingPathComponent("api-key"), atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError(key: "CREDENTIALS_DIRECTORY/api-key", value: nil, expected: expected)) {
            try DaemonConfiguration.resolve(environment: ["CREDENTIALS_DIRECTORY": directory.url.path])
        }
        for key in ["s3cret\r\nkey", "s3cret\u{01}key", "s3cret\tkey"] {
            #expect(throws: ConfigurationError(key: "LIGASD_API_KEY", value: nil, expected: expected)) {
                try DaemonConfiguration.resolve(environment: ["LIGASD_API_KEY": key])
            }
        }
        #expect(try DaemonConfiguration.resolve(environment: ["LIGASD_API_KEY": " \ts3cret key\r\n"]).apiKey == APIKey("s3cret key"))
    }

    @Test("A value that cannot be read stops ligasd, naming the setting, the value and what was expected")
    func invalidValues() {
        #expect(throws: ConfigurationError(key: "LIGASD_MAX_CONNECTIONS", value: "many", expected: "a whole number from 1 to 2147483647")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_MAX_CONNECTIONS": "many"])
        }
        #expect(throws: ConfigurationError(key: "LIGASD_MAX_FRAME_SIZE", value: "100", expected: "a whole number from 4096 to 4294967295")) {
            try DaemonConfiguration.resolve(commandLine: ["LIGASD_MAX_FRAME_SIZE": "100"], environment: [:])
        }
        #expect(throws: ConfigurationError(key: "LIGASD_SOCKET_MODE", value: "999", expected: "an octal mode such as 0660")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_SOCKET_MODE": "999"])
        }
        #expect(throws: ConfigurationError(key: "LIGASD_LOG_TARGET", value: "syslog", expected: "auto, journal or stderr")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_LOG_TARGET": "syslog"])
        }
        #expect(throws: ConfigurationError(
            key: "LIGASD_REMOTE", value: "ftp://x", expected: "an http://, https:// or file:// URL, or an absolute path")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_REMOTE": "ftp://x"])
        }
    }

    @Test("A count past what it goes to (a u32 in hello, a file descriptor, SQLite's largest file) is refused, with the range", arguments: [
        ("LIGASD_MAX_IN_FLIGHT", 1, 4_294_967_295), ("LIGASD_MAX_FRAME_SIZE", 4096, 4_294_967_295),
        ("LIGASD_MAX_CONNECTIONS", 1, 2_147_483_647), ("LIGASD_MAX_CONNECTIONS_PER_UID", 1, 2_147_483_647),
        ("LIGASD_IMAGE_CACHE_BYTES", 1, 281_474_976_710_656), ("LIGASD_MAX_OUTPUT_BYTES", 1, Int.max), ("LIGASD_MONTHLY_REQUESTS", 1, Int.max),
    ])
    func countRanges(name: String, minimum: Int, maximum: Int) throws {
        let refusal = "a whole number from \(minimum) to \(maximum)"
        for value in [String(minimum), String(maximum)] {
            #expect(throws: Never.self) { try DaemonConfiguration.resolve(environment: [name: value]) }
        }
        for value in [String(minimum - 1), maximum == .max ? "9223372036854775808" : String(maximum + 1)] {
            #expect(throws: ConfigurationError(key: name, value: value, expected: refusal)) {
                try DaemonConfiguration.resolve(environment: [name: value])
            }
        }
    }

    @Test("The tester's --max-in-flight 4294967296 is refused before anything starts; 4294967295 is taken")
    func maxInFlightFromTheCommandLine() throws {
        #expect(throws: ConfigurationError(key: "LIGASD_MAX_IN_FLIGHT", value: "4294967296", expected: "a whole number from 1 to 4294967295")) {
            try DaemonConfiguration.resolve(commandLine: try SettingFlags.parse(["--max-in-flight", "4294967296"]).values, environment: [:])
        }
        let configuration = try DaemonConfiguration.resolve(commandLine: ["LIGASD_MAX_IN_FLIGHT": "4294967295"], environment: [:])
        #expect(UInt32(exactly: configuration.limits.maxInFlightPerConnection) == .max)
    }

    @Test("Seconds: from 0 to 999999999, the message says so; the two connection timeouts refuse 0, which would close every connection at once")
    func durationRanges() throws {
        for name in ["LIGASD_MAX_CACHE_AGE", "LIGASD_REMOTE_FIRST_BUDGET", "LIGASD_IDLE_EXIT", "LIGASD_SHUTDOWN_GRACE"] {
            #expect(throws: Never.self) { try DaemonConfiguration.resolve(environment: [name: "0"]) }
            #expect(throws: Never.self) { try DaemonConfiguration.resolve(environment: [name: "999999999"]) }
            for value in ["1000000000", "-1", "soon"] {
                #expect(throws: ConfigurationError(key: name, value: value, expected: "seconds from 0 to 999999999")) {
                    try DaemonConfiguration.resolve(environment: [name: value])
                }
            }
        }
        for name in ["LIGASD_HANDSHAKE_TIMEOUT", "LIGASD_IDLE_CONNECTION_TIMEOUT"] {
            for value in ["0", "0.0004", "1000000000"] {
                #expect(throws: ConfigurationError(key: name, value: value, expected: "seconds from 0.001 to 999999999")) {
                    try DaemonConfiguration.resolve(environment: [name: value])
                }
            }
            #expect(DaemonSetting.named(name)?.help.contains("at least 0.001") == true)
        }
        let configuration = try DaemonConfiguration.resolve(
            environment: ["LIGASD_HANDSHAKE_TIMEOUT": "0.001", "LIGASD_IDLE_CONNECTION_TIMEOUT": "999999999"])
        #expect(configuration.limits.handshakeTimeout == .milliseconds(1))
        #expect(configuration.limits.idleConnectionTimeout == .seconds(999_999_999))
    }

    @Test("A config-file line with an unknown name, or without '=', stops ligasd, naming the line")
    func strictConfigFile() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("ligasd.conf")
        try "LIGASD_MAX_CONNECTIONS=1\nLIGASD_MAX_CONECTIONS=2\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError(key: "line 2", value: "LIGASD_MAX_CONECTIONS", expected: "a known LIGASD_* setting name (ligasd --help lists them)")) {
            try DaemonConfiguration.resolve(environment: [:], configFile: file.path)
        }
        try "LIGASD_MAX_CONNECTIONS\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ConfigurationError(key: "line 1", value: "LIGASD_MAX_CONNECTIONS", expected: "KEY=value")) {
            try DaemonConfiguration.resolve(environment: [:], configFile: file.path)
        }
    }

    @Test("A misspelt LIGASD_* name in the environment (where systemd's EnvironmentFile= puts the file's lines) stops ligasd")
    func unknownEnvironmentName() throws {
        let misspelt = ConfigurationError.unknownEnvironmentName("LIGASD_LOG_LEVLE")
        #expect(throws: misspelt) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_LOG_LEVEL": "info", "LIGASD_LOG_LEVLE": "debug", "PATH": "/usr/bin"])
        }
        #expect(misspelt.description
            == "LIGASD_LOG_LEVLE (in the environment; under systemd, from EnvironmentFile=): expected a known LIGASD_* setting name (ligasd --help lists them)")
        // The value is never shown: a misspelt LIGASD_API_KEY holds a key.
        #expect(throws: ConfigurationError.unknownEnvironmentName("LIGASD_APIKEY")) {
            try DaemonConfiguration.resolve(environment: ["LIGASD_APIKEY": "secret"])
        }
        #expect(!"\(ConfigurationError.unknownEnvironmentName("LIGASD_APIKEY"))".contains("secret"))
    }

    @Test("LIGASD_CONFIG, every setting's name and names without the LIGASD_ prefix are taken from the environment")
    func knownEnvironmentNames() throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("ligasd.conf")
        try "LIGASD_MAX_CONNECTIONS=7\n".write(to: file, atomically: true, encoding: .utf8)
        let environment = ["LIGASD_CONFIG": file.path, "LIGAS_SOMETHING": "x", "XLIGASD_Y": "z", "LIGASD_SOURCE": "sample"]
        #expect(try DaemonConfiguration.resolve(environment: environment).limits.maxConnections == 7)
        // Every setting's name: taken, or refused for its value, never for its name.
        for setting in DaemonSetting.all {
            do {
                _ = try DaemonConfiguration.resolve(environment: [setting.name: ""])
            } catch let error as ConfigurationError {
                #expect(error.key == setting.name)
            }
        }
    }

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
