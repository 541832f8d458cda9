import Glibc

/// A libsystemd or socket call that failed, with its errno.
public struct SystemdError: Error, Hashable, CustomStringConvertible {
    public let operation: String
    public let errno: Int32

    public init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// For libsystemd's convention: a negative return value is `-errno`.
    init(_ operation: String, returned result: Int32) {
        self.init(operation, errno: -result)
    }

    public var description: String { "\(operation) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}
