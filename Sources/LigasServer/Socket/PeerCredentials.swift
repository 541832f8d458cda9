import Glibc

/// Who is at the other end of a connected Unix socket, as the kernel recorded it at connect(2)
/// time (`SO_PEERCRED`): cannot be forged by the client.
public struct PeerCredentials: Sendable, Hashable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    public init(ofSocket fileDescriptor: Int32) throws(SocketError) {
        // Swift's Glibc module is built without _GNU_SOURCE, so `struct ucred` is not visible. Its
        // layout is fixed by the Linux ABI: pid_t, uid_t, gid_t, three 32-bit fields; a homogeneous
        // tuple is laid out contiguously like the C array Swift imports it from.
        var credentials: (UInt32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fileDescriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw .system(call: "getsockopt(SO_PEERCRED)", errno: errno)
        }
        guard length == MemoryLayout.size(ofValue: credentials) else {
            throw .system(call: "getsockopt(SO_PEERCRED)", errno: EINVAL)
        }
        self.init(pid: Int32(bitPattern: credentials.0), uid: credentials.1, gid: credentials.2)
    }
}
