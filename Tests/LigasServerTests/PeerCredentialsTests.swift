import Foundation
import LigasServer
import LigasTestSupport
import Testing

struct PeerCredentialsTests {
    @Test("reads the pid, uid and gid of the process at the other end of a Unix socket")
    func readsPeerCredentials() throws {
        let (one, other) = try UnixSocket.pair()

        let credentials = try PeerCredentials(ofSocket: one.fileDescriptor)

        #expect(credentials == PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
        #expect(try PeerCredentials(ofSocket: other.fileDescriptor) == credentials)
    }

    @Test("reports a descriptor that is not a socket")
    func rejectsNonSocket() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { _ = close($0) } }
        #expect(throws: SocketError.system(call: "getsockopt(SO_PEERCRED)", errno: ENOTSOCK)) {
            try PeerCredentials(ofSocket: ends[0])
        }
    }
}
