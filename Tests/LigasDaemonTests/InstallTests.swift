import Foundation
import Glibc
import LigasTestSupport
import Testing

/// scripts/install and scripts/uninstall, run into a temporary DESTDIR with PREFIX=/usr and the
/// debug binaries the other tests run (LIGAS_INSTALL_BIN_DIR: no release build).
@Suite("scripts/install and scripts/uninstall")
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let resources = "ligasd_LigasSampleData.resources"

    /// Every file the install writes below DESTDIR, with its mode, except ligasd's sample data
    /// (`sampleDataFiles`) and the symlink usr/bin/ligasd.
    static let expectedFiles: [String: Int] = [
        "usr/bin/ligas-client": 0o755,
        "usr/lib/ligasd/ligasd": 0o755,
        "usr/lib/systemd/system/ligasd.socket": 0o644,
        "usr/lib/systemd/system/ligasd.service": 0o644,
        "usr/lib/systemd/user/ligasd.socket": 0o644,
        "usr/lib/systemd/user/ligasd.service": 0o644,
        "usr/lib/sysusers.d/ligasd.conf": 0o644,
        "usr/lib/systemd/catalog/ligasd.catalog": 0o644,
        "usr/share/doc/ligasd/README.md": 0o644,
        "usr/share/doc/ligasd/Protocol/PROTOCOL.md": 0o644,
        "usr/share/doc/ligasd/Protocol/example-client/ligas_client.py": 0o644,
        "usr/share/doc/ligasd/Benchmarks/HISTORY.md": 0o644,
        "usr/share/bash-completion/completions/ligasd": 0o644,
        "usr/share/bash-completion/completions/ligas-client": 0o644,
        "usr/share/zsh/site-functions/_ligasd": 0o644,
        "usr/share/zsh/site-functions/_ligas-client": 0o644,
        "usr/share/fish/vendor_completions.d/ligasd.fish": 0o644,
        "usr/share/fish/vendor_completions.d/ligas-client.fish": 0o644,
        "usr/share/man/man1/ligasd.1": 0o644,
        "usr/share/man/man1/ligas-client.1": 0o644,
        "usr/share/ligasd/install-manifest": 0o644,
        "etc/ligasd/api-key": 0o600,
    ]

    /// The resource bundle's files as built, where the install puts them (mode 0644).
    static func sampleDataFiles() throws -> Set<String> {
        try Set(Self.files(in: Binaries.directory.appendingPathComponent(resources)).map { "usr/lib/ligasd/\(resources)/\($0)" })
    }

    /// The protocol's golden vectors as in the repository, where the install puts them (mode 0644).
    static func vectorFiles() throws -> Set<String> {
        try Set(Self.files(in: repository.appendingPathComponent("Protocol/vectors")).map { "usr/share/doc/ligasd/Protocol/vectors/\($0)" })
    }

    /// Paths (relative, sorted) of everything but directories below `root`: files and symlinks.
    static func files(in root: URL) throws -> [String] {
        try entries(in: root).filter { !$0.isDirectory }.map(\.path).sorted()
    }

    static func directories(in root: URL) throws -> [String] {
        try entries(in: root).filter(\.isDirectory).map(\.path).sorted()
    }

    static func entries(in root: URL) throws -> [(path: String, isDirectory: Bool)] {
        var found: [(String, Bool)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
            let url = root.appendingPathComponent(name)
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            found.append((name, isDirectory))
            if isDirectory { found += try entries(in: url).map { ("\(name)/\($0.path)", $0.isDirectory) } }
        }
        return found
    }

    /// The permission bits, nil when there is no such file.
    static func mode(_ url: URL) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? NSNumber).map { $0.intValue & 0o7777 }
    }

    struct ScriptRun {
        let status: Int32
        let output: String
    }

    /// `scripts/NAME` with PREFIX=/usr, DESTDIR=`destination` and the tests' binaries.
    static func script(_ name: String, into destination: URL, log directory: TemporaryDirectory) async throws -> ScriptRun {
        let log = directory.url.appendingPathComponent("\(name)-\(UUID().uuidString).log")
        let environment = ChildEnvironment.inherited(overrides: [
            "PREFIX": "/usr", "DESTDIR": destination.path, "LIGAS_INSTALL_BIN_DIR": Binaries.directory.path,
        ])
        let status = try await Spawn.run(repository.appendingPathComponent("scripts/\(name)").path, [], environment: environment, output: log)
        return ScriptRun(status: status, output: try String(contentsOf: log, encoding: .utf8))
    }

    /// A first install into a new DESTDIR (`destination`, inside `work`), which must succeed.
    static func freshInstall() async throws -> (work: TemporaryDirectory, destination: URL, install: ScriptRun) {
        let work = TemporaryDirectory()
        let destination = work.url.appendingPathComponent("destdir")
        let install = try await script("install", into: destination, log: work)
        try #require(install.status == 0, "\(install.output)")
        return (work, destination, install)
    }

    /// What `binary --experimental-dump-help` says of its command: long option names and subcommands.
    static func commandLine(of binary: URL) async throws -> (options: [String], subcommands: [String]) {
        let run = try await CommandRun.run(binary, ["--experimental-dump-help"], environment: [:])
        let tool = try #require(try run.jsonObject())
        let command = try #require(tool["command"] as? [String: Any])
        func longNames(_ command: [String: Any]) -> [String] {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            return arguments.filter { $0["shouldDisplay"] as? Bool ?? true }.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
            }
        }
        let subcommands = command["subcommands"] as? [[String: Any]] ?? []
        let options = longNames(command) + subcommands.flatMap(longNames)
        // Not argument-parser's implicit `help`, which every command has.
        return (Array(Set(options)).sorted(), subcommands.compactMap { $0["commandName"] as? String }.filter { $0 != "help" })
    }

    // MARK: - Tests

    @Test("install writes the expected tree, which works, and uninstall removes all of it")
    func installThenUninstall() async throws {
        let (work, destination, install) = try await Self.freshInstall()

        // Exactly the expected files, with their modes; each path printed.
        let sampleData = try Self.sampleDataFiles()
        let vectors = try Self.vectorFiles()
        #expect(!sampleData.isEmpty && !vectors.isEmpty)
        let installed = try Self.files(in: destination)
        #expect(Set(installed) == Set(Self.expectedFiles.keys).union(sampleData).union(vectors).union(["usr/bin/ligasd"]))
        for (path, mode) in Self.expectedFiles {
            #expect(Self.mode(destination.appendingPathComponent(path)) == mode, "\(path)")
        }
        for path in sampleData.union(vectors) {
            #expect(Self.mode(destination.appendingPathComponent(path)) == 0o644, "\(path)")
        }
        for path in Self.expectedFiles.keys + ["usr/bin/ligasd"] {
            #expect(install.output.contains("installed \(destination.path)/\(path)"), "\(path) not printed")
        }
        #expect(Self.mode(destination.appendingPathComponent("etc/ligasd")) == 0o700)
        // Only the key's own folder is private: a staged tree unpacked over / must not close /etc.
        #expect(Self.mode(destination.appendingPathComponent("etc")) == 0o755)
        let apiKey = try FileManager.default.attributesOfItem(atPath: destination.appendingPathComponent("etc/ligasd/api-key").path)
        #expect((apiKey[.size] as? NSNumber)?.intValue == 0)
        // bin/ligasd is a relative link to the executable beside its resource bundle.
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: destination.appendingPathComponent("usr/bin/ligasd").path)) == "../lib/ligasd/ligasd")
        for next in ["systemd-sysusers", "systemctl daemon-reload", "journalctl --update-catalog", "systemctl enable --now ligasd.socket", "systemctl --user enable --now ligasd.socket"] {
            #expect(install.output.contains(next), "next step \(next) not printed")
        }

        try await checkBinaries(in: destination)
        try await checkUnits(in: destination, work: work)
        try await checkManPages(in: destination, work: work)
        try await checkCompletions(in: destination)

        // Uninstall leaves nothing: every directory below DESTDIR was created by the install.
        let uninstall = try await Self.script("uninstall", into: destination, log: work)
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == [])
        for path in Self.expectedFiles.keys {
            #expect(uninstall.output.contains("removed \(destination.path)/\(path)"), "\(path) not printed")
        }
        // Again, with everything already gone: nothing to do, and no failure.
        let again = try await Self.script("uninstall", into: destination, log: work)
        #expect(again.status == 0, "\(again.output)")
        #expect(again.output.contains("nothing to uninstall"))
    }

    @Test("Every relative link in the installed documentation leads to an installed file")
    func installedDocumentationLinksResolve() async throws {
        let (work, destination, _) = try await Self.freshInstall()
        defer { withExtendedLifetime(work) {} }  // the install lives in it until the test ends
        let documentation = destination.appendingPathComponent("usr/share/doc/ligasd")
        let documents = try Self.files(in: documentation).filter { $0.hasSuffix(".md") }
        #expect(Set(["README.md", "Protocol/PROTOCOL.md", "Benchmarks/HISTORY.md"]).isSubset(of: documents))
        var links = 0
        for document in documents {
            let url = documentation.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            // Markdown links `](target)` that are not web addresses or anchors within the page.
            for match in text.matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) {
                let target = String(match.1)
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                links += 1
                let resolved = url.deletingLastPathComponent().appendingPathComponent(target).standardized
                #expect(FileManager.default.fileExists(atPath: resolved.path), "\(document) links to \(target), not installed")
            }
        }
        #expect(links > 0)
    }

    @Test("A reinstall keeps the API key that was written; uninstall keeps it too, and removes everything else")
    func apiKeyIsKept() async throws {
        let (work, destination, _) = try await Self.freshInstall()
        let key = destination.appendingPathComponent("etc/ligasd/api-key")
        try Data("secret\n".utf8).write(to: key)

        let second = try await Self.script("install", into: destination, log: work)
        try #require(second.status == 0, "\(second.output)")
        #expect(try String(contentsOf: key, encoding: .utf8) == "secret\n")
        #expect(Self.mode(key) == 0o600)
        #expect(!second.output.contains("installed \(key.path)"))

        let uninstall = try await Self.script("uninstall", into: destination, log: work)
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(try Self.files(in: destination) == ["etc/ligasd/api-key"])
        #expect(try Self.directories(in: destination) == ["etc", "etc/ligasd"])
        #expect(try String(contentsOf: key, encoding: .utf8) == "secret\n")
        #expect(uninstall.output.contains("kept \(key.path)"))
    }

    // MARK: - Checks of an installed tree

    /// The installed binaries run; ligasd, through its link, serves the sample data installed
    /// beside it (its log names the remote it uses), and the installed ligas-client reads it.
    func checkBinaries(in destination: URL) async throws {
        let ligasd = destination.appendingPathComponent("usr/bin/ligasd")
        let client = destination.appendingPathComponent("usr/bin/ligas-client")
        let version = try await CommandRun.run(ligasd, ["--version"], environment: [:])
        let built = try await CommandRun.run(Binaries.url("ligasd"), ["--version"], environment: [:])
        #expect(version.status == 0, "\(version.errorOutput)")
        #expect(!version.text.isEmpty && version.text == built.text)
        let help = try await CommandRun.run(client, ["--help"], environment: [:])
        #expect(help.status == 0, "\(help.errorOutput)")
        #expect(help.text.contains("USAGE: ligas-client"))

        let directory = TemporaryDirectory()
        let socket = directory.url.appendingPathComponent("ligasd.sock").path
        let daemon = try ChildProcess(
            ligasd, ["--socket", socket, "--cache", directory.url.appendingPathComponent("cache.sqlite").path, "--log-target", "stderr"],
            errorLog: directory.url.appendingPathComponent("ligasd.log"))
        let outcome = await asyncResult {
            try await RunningDaemon.waitUntilServing(socket, child: daemon)
            return try await CommandRun.run(client, ["leagues", "--socket", socket], environment: [:])
        }
        daemon.signal(SIGTERM)
        let status = try? await daemon.waitForExit()
        await daemon.stop()
        let leagues = try outcome.get()
        #expect(leagues.status == 0, "\(leagues.errorOutput)")
        #expect(leagues.lines.contains { $0.hasPrefix("serie-a ") })
        #expect(status == 0)
        let started = try #require(daemon.errorOutput.split(separator: "\n").first { $0.contains("ligasd started") }, "\(daemon.errorOutput)")
        #expect(started.contains("\(destination.path)/usr/lib/ligasd/\(Self.resources)/SampleData"), "\(started)")
    }

    /// No `@bindir@` left, ExecStart at the real bindir, and systemd-analyze verify silent on the
    /// installed units.
    func checkUnits(in destination: URL, work: TemporaryDirectory) async throws {
        for kind in ["system", "user"] {
            let units = destination.appendingPathComponent("usr/lib/systemd/\(kind)")
            for unit in ["ligasd.socket", "ligasd.service"] {
                let text = try String(contentsOf: units.appendingPathComponent(unit), encoding: .utf8)
                #expect(!text.contains("@bindir@"), "\(kind)/\(unit)")
                #expect(!text.contains(destination.path), "\(kind)/\(unit) names DESTDIR")
            }
            let service = try String(contentsOf: units.appendingPathComponent("ligasd.service"), encoding: .utf8)
            #expect(service.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == ["ExecStart=/usr/bin/ligasd"], "\(kind)")
        }
        let system = try String(contentsOf: destination.appendingPathComponent("usr/lib/systemd/system/ligasd.service"), encoding: .utf8)
        #expect(system.contains("Documentation=file:///usr/share/doc/ligasd/README.md"))

        // systemd-analyze verify, which checks that ExecStart= is an executable: on copies whose
        // ExecStart= names the binary inside DESTDIR (--root wants a whole system under it).
        for kind in ["system", "user"] {
            let copies = work.url.appendingPathComponent("verify-\(kind)")
            try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
            for unit in ["ligasd.socket", "ligasd.service"] {
                let text = try String(contentsOf: destination.appendingPathComponent("usr/lib/systemd/\(kind)/\(unit)"), encoding: .utf8)
                try text.replacingOccurrences(of: "ExecStart=/usr/bin/ligasd", with: "ExecStart=\(destination.path)/usr/bin/ligasd")
                    .write(to: copies.appendingPathComponent(unit), atomically: true, encoding: .utf8)
            }
            let runtime = work.url.appendingPathComponent("runtime")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let verify = try await UnitFileTests.systemdAnalyze(
                (kind == "user" ? ["--user"] : []) + ["verify", copies.appendingPathComponent("ligasd.socket").path, copies.appendingPathComponent("ligasd.service").path],
                in: work.url, environment: ["XDG_RUNTIME_DIR": runtime.path])
            #expect(verify.status == 0, "\(kind): \(verify.output)")
            #expect(verify.output == "", "\(kind)")
        }
    }

    /// The pages render without a warning and name every option and subcommand the binaries have.
    func checkManPages(in destination: URL, work: TemporaryDirectory) async throws {
        for name in ["ligasd", "ligas-client"] {
            let page = destination.appendingPathComponent("usr/share/man/man1/\(name).1")
            let rendered = work.url.appendingPathComponent("\(name).txt")
            let warnings = work.url.appendingPathComponent("\(name).warnings")
            let status = try await Spawn.run(
                "/bin/sh", ["-c", "groff -mandoc -Tutf8 -ww -P-cbou \"$1\" >\"$2\" 2>\"$3\"", "sh", page.path, rendered.path, warnings.path],
                environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
            #expect(status == 0, "groff on \(name).1")
            #expect(try String(contentsOf: warnings, encoding: .utf8) == "", "\(name).1")
            let text = try String(contentsOf: rendered, encoding: .utf8)
                .replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
            #expect(text.contains("\nNAME\n     \(name) \u{2014} "), "\(name).1 has no NAME section")
            let commandLine = try await Self.commandLine(of: Binaries.url(name))
            #expect(!commandLine.options.isEmpty)
            for option in commandLine.options {
                #expect(text.contains("--\(option)"), "\(name).1 lacks --\(option): run scripts/generate-man-pages")
            }
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            for subcommand in commandLine.subcommands {
                #expect(lines.contains { $0 == subcommand || $0.hasPrefix("\(subcommand) ") }, "\(name).1 lacks \(subcommand): run scripts/generate-man-pages")
            }
        }
    }

    /// Each completion script is for its binary and knows its subcommands (ligas-client) or
    /// options (ligasd; fish writes them without dashes).
    func checkCompletions(in destination: URL) async throws {
        for name in ["ligasd", "ligas-client"] {
            let commandLine = try await Self.commandLine(of: Binaries.url(name))
            let words = commandLine.subcommands.isEmpty ? commandLine.options : commandLine.subcommands
            #expect(!words.isEmpty)
            for path in ["usr/share/bash-completion/completions/\(name)", "usr/share/zsh/site-functions/_\(name)", "usr/share/fish/vendor_completions.d/\(name).fish"] {
                let text = try String(contentsOf: destination.appendingPathComponent(path), encoding: .utf8)
                #expect(text.contains(name), "\(path)")
                for word in words {
                    #expect(text.contains(word), "\(path) lacks \(word)")
                }
            }
        }
    }
}
