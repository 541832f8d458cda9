import Foundation
import LigasSystemd
import LigasTestSupport
import Testing

extension ProcessWideStateTests {
    /// sd_notify against a real datagram socket standing in for systemd's `NOTIFY_SOCKET`.
    @Suite struct SystemdNotifierTests {
        let directory = TemporaryDirectory()
        var socketPath: String { directory.url.appendingPathComponent("notify.sock").path }

        func makeManagerSocket() throws -> UnixSocket {
            let socket = try UnixSocket.datagram()
            try socket.bind(to: socketPath)
            return socket
        }

        @Test("sends READY=1, STATUS, WATCHDOG=1 and STOPPING=1 to the service manager")
        func sendsStateChanges() throws {
            let manager = try makeManagerSocket()
            let notifier = SystemdNotifier()

            try withEnvironment(["NOTIFY_SOCKET": socketPath]) {
                #expect(notifier.isEnabled)
                try notifier.ready()
                try notifier.status("Serving 3 leagues")
                try notifier.watchdog()
                try notifier.stopping()
            }

            #expect(try manager.receiveDatagram() == "READY=1")
            #expect(try manager.receiveDatagram() == "STATUS=Serving 3 leagues")
            #expect(try manager.receiveDatagram() == "WATCHDOG=1")
            #expect(try manager.receiveDatagram() == "STOPPING=1")
        }

        @Test("sends readiness and a status in one datagram")
        func sendsReadyWithStatus() throws {
            let manager = try makeManagerSocket()

            try withEnvironment(["NOTIFY_SOCKET": socketPath]) {
                try SystemdNotifier().ready(status: "Listening")
            }

            #expect(try manager.receiveDatagram() == "READY=1\nSTATUS=Listening")
        }

        @Test("keeps a status on one line, so it cannot smuggle in another assignment")
        func statusStaysOneLine() throws {
            let manager = try makeManagerSocket()

            try withEnvironment(["NOTIFY_SOCKET": socketPath]) {
                try SystemdNotifier().status("Degraded\nREADY=1\r\nMAINPID=1")
            }

            #expect(try manager.receiveDatagram() == "STATUS=Degraded READY=1  MAINPID=1")
        }

        @Test("does nothing when not started by systemd")
        func noOpWithoutNotifySocket() throws {
            let manager = try makeManagerSocket()
            try withEnvironment(["NOTIFY_SOCKET": nil]) {
                let notifier = SystemdNotifier()
                #expect(!notifier.isEnabled)
                try notifier.ready()
                try notifier.status("unheard")
                try notifier.watchdog()
                try notifier.stopping()
            }
            // Nothing arrived: a datagram sent now is the first one the socket sees.
            try UnixSocket.datagram().send("PROBE=1", to: socketPath)
            #expect(try manager.receiveDatagram() == "PROBE=1")
        }

        @Test("reports a service manager socket that is not there")
        func reportsSendFailure() {
            withEnvironment(["NOTIFY_SOCKET": socketPath]) {
                #expect(throws: SystemdError.self) { try SystemdNotifier().ready() }
            }
        }

        @Test("reads the watchdog interval systemd set for this process, honouring WATCHDOG_PID")
        func watchdogInterval() {
            let pid = String(getpid())
            let notifier = SystemdNotifier()

            withEnvironment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": pid]) {
                #expect(notifier.watchdogInterval == .seconds(3))
            }
            withEnvironment(["WATCHDOG_USEC": "1500", "WATCHDOG_PID": nil]) {
                #expect(notifier.watchdogInterval == .microseconds(1500))
            }
            withEnvironment(["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": String(getpid() + 1)]) {
                #expect(notifier.watchdogInterval == nil, "the watchdog is meant for another process")
            }
            withEnvironment(["WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]) {
                #expect(notifier.watchdogInterval == nil)
            }
        }
    }
}
