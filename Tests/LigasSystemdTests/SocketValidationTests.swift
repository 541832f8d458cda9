import Foundation
@testable import LigasSystemd
import LigasTestSupport
import Testing

/// What `SocketActivation` accepts from systemd, checked on sockets at whatever fd they got (fd 3
/// itself is only used in a child process, see `SocketActivationTests`).
struct SocketValidationTests {
    let directory = TemporaryDirectory()
    var path: String { directory.url.appendingPathComponent("ligasd.sock").path }

    @Test("accepts a listening Unix stream socket")
    func acceptsListeningStreamSocket() throws {
        let listener = try UnixSocket.listening(at: path)
        let passed = [ActivatedSocket(fileDescriptor: listener.fileDescriptor, name: "ligasd")]

        #expect(try SocketActivation.validated(passed) == passed)
    }

    @Test("rejects a datagram socket")
    func rejectsDatagramSocket() throws {
        let datagram = try UnixSocket.datagram()
        try datagram.bind(to: path)
        let passed = ActivatedSocket(fileDescriptor: datagram.fileDescriptor, name: "ligasd")

        #expect(throws: SocketActivationError.notAListeningUnixStreamSocket(passed)) {
            try SocketActivation.validated([passed])
        }
    }

    @Test("rejects a stream socket that is not listening")
    func rejectsNonListeningSocket() throws {
        let (connected, _) = try UnixSocket.pair()
        let passed = ActivatedSocket(fileDescriptor: connected.fileDescriptor, name: "ligasd")

        #expect(throws: SocketActivationError.notAListeningUnixStreamSocket(passed)) {
            try SocketActivation.validated([passed])
        }
    }

    @Test("rejects a descriptor that is not open")
    func rejectsClosedDescriptor() throws {
        // Far above any descriptor this process opens, so never someone else's.
        let passed = ActivatedSocket(fileDescriptor: 1 << 29, name: "ligasd")

        #expect(throws: SocketActivationError.checkFailed(passed, SystemdError("sd_is_socket_unix", errno: EBADF))) {
            try SocketActivation.validated([passed])
        }
    }

    @Test("picks the socket named ligasd, or the only one passed")
    func selectsSocket() throws {
        let ligasd = ActivatedSocket(fileDescriptor: 4, name: "ligasd")
        let other = ActivatedSocket(fileDescriptor: 3, name: "metrics")
        let unnamed = ActivatedSocket(fileDescriptor: 3, name: "unknown")

        #expect(try SocketActivation.select(named: "ligasd", from: [other, ligasd]) == ligasd)
        #expect(try SocketActivation.select(named: "ligasd", from: [unnamed]) == unnamed)
        #expect(try SocketActivation.select(named: "ligasd", from: []) == nil)
        #expect(throws: SocketActivationError.noSocketNamed("ligasd", passed: [other, unnamed])) {
            try SocketActivation.select(named: "ligasd", from: [other, unnamed])
        }
    }
}
