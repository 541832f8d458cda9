import Foundation
import LigasSystemd
import LigasTestSupport
import Testing

extension ProcessWideStateTests {
    /// `SocketActivation.listeningSockets()` against what the real `systemd-socket-activate` passes.
    ///
    /// sd_listen_fds_with_names only looks at fd 3 onwards of a process whose pid is `LISTEN_PID`.
    /// Putting a socket at fd 3 of this test process (dup2) is not safe: fd 3 may belong to the test
    /// runner or to another test running in parallel (an epoll fd, a pipe), which would then read or
    /// write our socket, and a descriptor that is free when checked can be taken before the dup2.
    /// So the tool runs a child process, the test binary itself, limited to `ActivatedProbe`, which
    /// writes what it received to a report file. Real tool, real fd 3, real environment, and the
    /// production path, with nothing in this process touched.
    @Suite struct SocketActivationTests {
        let directory = TemporaryDirectory()
        var socketPath: String { directory.url.appendingPathComponent("ligasd.sock").path }
        var reportPath: String { directory.url.appendingPathComponent("report").path }

        @Test("receives the listening socket systemd-socket-activate passes as fd 3 named ligasd")
        func receivesListeningSocket() async throws {
            let report = try await activateProbe(datagram: false) {
                try UnixSocket.stream().connect(to: socketPath)
            }

            #expect(report == "3 ligasd")
        }

        @Test("refuses a datagram socket that systemd-socket-activate passes instead")
        func refusesDatagramSocket() async throws {
            let report = try await activateProbe(datagram: true) {
                try UnixSocket.datagram().send("wake up", to: socketPath)
            }

            #expect(report == "error: socket activation: fd 3 (\"ligasd\") is not a listening Unix stream socket")
        }

        @Test("finds no sockets when the process was not socket-activated")
        func noSocketsWithoutActivation() throws {
            try withEnvironment(["LISTEN_FDS": nil, "LISTEN_PID": nil, "LISTEN_FDNAMES": nil]) { () throws in
                #expect(try SocketActivation.listeningSockets().isEmpty)
                #expect(try SocketActivation.listeningSocket() == nil)
            }
        }

        @Test("ignores sockets passed to another process")
        func ignoresOtherProcessesSockets() throws {
            // LISTEN_PID is not ours (a parent that forgot to unset it), so fd 3 is not even looked at.
            try withEnvironment(["LISTEN_FDS": "1", "LISTEN_PID": String(getpid() + 1), "LISTEN_FDNAMES": "ligasd"]) { () throws in
                #expect(try SocketActivation.listeningSockets().isEmpty)
            }
        }

        /// Runs `systemd-socket-activate [-d] -l <socket> --fdname=ligasd <this test binary, probe only>`,
        /// wakes it with `trigger` (the tool execs the program on the first connection or datagram),
        /// and returns what the probe reported.
        private func activateProbe(datagram: Bool, trigger: () throws -> Void) async throws -> String {
            let log = directory.url.appendingPathComponent("activator.log")
            let activator = try Spawn.start(
                "/usr/bin/systemd-socket-activate",
                (datagram ? ["--datagram"] : []) + [
                    "--listen=\(socketPath)", "--fdname=\(SocketActivation.defaultSocketName)",
                    "--setenv=\(ActivatedProbe.reportVariable)=\(reportPath)",
                ] + ActivatedProbe.commandLine,
                environment: ChildEnvironment.inherited(), output: log)
            defer { if !activator.hasExited { kill(activator.pid, SIGKILL) } }

            // The socket file appears at bind(), before listen(): retry the wake-up until it lands.
            try await poll("systemd-socket-activate to listen on \(socketPath)") {
                (try? trigger()) != nil ? true : nil
            }
            // The probe is a whole test run starting up: allow it more than a journal write.
            try await poll("the activated probe to finish", timeout: .seconds(60)) { activator.hasExited ? true : nil }
            let report = FileManager.default.contents(atPath: reportPath).map { String(decoding: $0, as: UTF8.self) }
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return try #require(report, "no report; systemd-socket-activate and the probe printed:\n\(output)")
        }
    }
}

/// The child side of `SocketActivationTests`: runs only in the test binary that
/// `systemd-socket-activate` started (it sets the report variable), skipped everywhere else.
@Suite struct ActivatedProbe {
    static let reportVariable = "LIGASD_TEST_ACTIVATION_REPORT"
    static var reportPath: String? { ProcessInfo.processInfo.environment[reportVariable] }

    /// This test binary, asked to run this suite alone with Swift Testing.
    static var commandLine: [String] {
        [Bundle.main.executablePath ?? CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", "ActivatedProbe"]
    }

    @Test("reports the sockets systemd passed (only inside systemd-socket-activate)", .enabled(if: reportPath != nil))
    func reportActivatedSockets() throws {
        let report: String
        do {
            report = try SocketActivation.listeningSockets().map { "\($0.fileDescriptor) \($0.name)" }.joined(separator: "\n")
        } catch {
            report = "error: \(error)"
        }
        try report.write(toFile: try #require(Self.reportPath), atomically: true, encoding: .utf8)
    }
}
