import Foundation
@testable import LigasDaemon
import LigasTestSupport
import Testing

/// The config file reads as systemd's `EnvironmentFile=` does. `cases` is a piece of a file for the
/// name `NAME`, and the value systemd gives it: ligasd's reading is checked against the table, and
/// the table against a real systemd (`systemdAgrees`).
@Suite("The config file in the syntax of systemd's EnvironmentFile=")
struct EnvironmentFileSyntaxTests {
    static let cases: [(text: String, value: String)] = [
        ("NAME=plain", "plain"),
        ("NAME='0600'", "0600"),
        ("NAME=\"debug\"", "debug"),
        ("NAME=  spaced value \t ", "spaced value"),
        ("  NAME  =  v", "v"),
        ("NAME=x=y", "x=y"),
        ("NAME=", ""),
        ("NAME=a\\\nb", "ab"),
        ("NAME=a \\\n  b", "a   b"),
        ("NAME=a\\nb\\\\c\\'d", "anb\\c'd"),
        ("NAME=a\\ ", "a "),
        ("NAME=a # not a comment", "a # not a comment"),
        ("NAME=x'y' \"z\"", "x'y' \"z\""),
        ("NAME=$HOME", "$HOME"),
        ("NAME='a\\b \"c\"'", "a\\b \"c\""),
        ("NAME='multi\nline'", "multi\nline"),
        ("NAME=\"x\\\"y\\\\z\\$w\\`v\\nq\"", "x\"y\\z$w`v\\nq"),
        ("NAME=\"a\\\nb\"", "ab"),
        ("NAME=\"two\nlines\"", "two\nlines"),
        ("NAME= 'a' 'b'c d  ", "abc d"),
        ("NAME=\"a\"b\"c\"", "ab\"c\""),
        ("NAME=crlf\r", "crlf"),
        ("; a comment\n  # another, indented\n\nNAME=after comments # and blank lines", "after comments # and blank lines"),
        ("NAME=first\nNAME=second", "second"),
    ]

    @Test("A value reads as systemd reads it", arguments: cases)
    func value(text: String, value: String) throws {
        let assignments = try EnvironmentFileSyntax.assignments(in: text + "\n")
        #expect(assignments.last?.name == "NAME")
        #expect(assignments.last?.value == value)
        // The last line needs no line end.
        #expect(try EnvironmentFileSyntax.assignments(in: text).last?.value == value)
    }

    @Test("A real systemd --user gives every case of the table its value, from one EnvironmentFile=")
    func systemdAgrees() async throws {
        let directory = TemporaryDirectory()
        let file = directory.url.appendingPathComponent("cases.conf")
        let names = Self.cases.indices.map { "CASE_\($0)" }
        try zip(names, Self.cases).map { name, example in example.text.replacingOccurrences(of: "NAME", with: name) + "\n" }
            .joined().write(to: file, atomically: true, encoding: .utf8)
        // Its ligasd units are installed but never started: only the transient service runs.
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let environment = try await UserManager.run(binaryDirectory: binaries, remote: "/nonexistent") { manager in
            try await manager.environment(loadedFrom: file)
        }
        for (name, example) in zip(names, Self.cases) {
            #expect(environment[name] == example.value, "\(example.text.debugDescription)")
        }
    }

    @Test("A name without '=', a quote left open or a comment ending in a backslash stops ligasd, naming the line")
    func refusals() {
        #expect(throws: ConfigurationError(key: "line 2", value: "LIGASD_SOURCE", expected: "KEY=value")) {
            try ConfigFile.parse("# the source\nLIGASD_SOURCE\nLIGASD_LOG_LEVEL=debug\n")
        }
        #expect(throws: ConfigurationError(key: "line 1", value: nil, expected: "KEY=value")) {
            try ConfigFile.parse("=sample")
        }
        // What is on a line that is no setting may be a key: only a setting-shaped name is shown.
        #expect(throws: ConfigurationError(key: "line 2", value: nil, expected: "KEY=value")) {
            try ConfigFile.parse("LIGASD_SOURCE=rapidapi\nLIGASD_API_KEY s3cret-key\n")
        }
        #expect(throws: ConfigurationError(key: "line 1", value: nil, expected: "KEY=value")) {
            try ConfigFile.parse("s3cretkey")
        }
        #expect(throws: ConfigurationError(key: "line 1", value: nil, expected: ConfigurationError.knownName)) {
            try ConfigFile.parse("c2VjcmV0a2V5==\n")  // a base64 key ends in "=": a name to the parser
        }
        #expect(throws: ConfigurationError(
            key: "line 2", value: "LIGASD_SOURCE",
            expected: "a closing quote (the one opened on this line is still open at the end of the file)")) {
            try ConfigFile.parse("LIGASD_LOG_LEVEL=debug\nLIGASD_SOURCE='sample\nLIGASD_LOG_TARGET=stderr\n")
        }
        #expect(throws: ConfigurationError(
            key: "line 1", value: "a comment ending in a backslash",
            expected: "no backslash at its end (systemd before 254 joins the next line to the comment, later ones do not)")) {
            try ConfigFile.parse("# the level \\\nLIGASD_LOG_LEVEL=debug\n")
        }
        // Lines are counted as an editor counts them: a quoted value's own lines too.
        #expect(throws: ConfigurationError(
            key: "line 4", value: "LIGASD_LOG_LEVLE", expected: "a known LIGASD_* setting name (ligasd --help lists them)")) {
            try ConfigFile.parse("LIGASD_FLASHLIVE_SEASONS=\"serie-a=a/b,\\\nserie-b=c/d\"\n\nLIGASD_LOG_LEVLE=debug\n")
        }
    }

    @Test("The tester's file: single quotes, a ';' comment and a continuation line, as systemd reads them")
    func testersFile() throws {
        let settings = try ConfigFile.parse("""
            ; ligasd for the tests
            LIGASD_SOCKET_MODE='0600'
            LIGASD_FLASHLIVE_SEASONS=serie-a=IaFDigtm/OO37de6i,\\
            serie-b=x/y
            """)
        #expect(settings == ["LIGASD_SOCKET_MODE": "0600", "LIGASD_FLASHLIVE_SEASONS": "serie-a=IaFDigtm/OO37de6i,serie-b=x/y"])
        var configuration = DaemonConfiguration()
        for (name, value) in settings { try DaemonSetting.named(name)?.apply(&configuration, value) }
        #expect(configuration.socketMode == 0o600)
        #expect(configuration.flashLiveSeasons.count == 2)
    }
}
