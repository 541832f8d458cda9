import ArgumentParser
import LigasClient
import LigasProtocol

/// Exit codes, one per class of failure, so scripts can branch on them.
enum ExitStatus {
    static let notFound: Int32 = 2
    static let unavailable: Int32 = 3      // connectivity, or offline with nothing cached
    static let invalidData: Int32 = 4
    static let busy: Int32 = 5             // too many requests, a provider's quota spent, shutting down, deadline or timeout
    static let usage: Int32 = 64           // ArgumentParser's own code for bad usage
    static let daemonUnreachable: Int32 = 69
    static let cannotWrite: Int32 = 73     // sysexits' EX_CANTCREAT: the image's -o file, or stdout
    static let interrupted: Int32 = 130

    static let documentation = """
        Exit status: 0 success; 1 unexpected error (bug, protocol violation, failed integrity check, \
        answer too large to receive); \
        2 not found; 3 no connectivity and nothing cached; 4 the remote sent invalid data; \
        5 busy (too many requests, a data provider's request quota spent, daemon stopping, deadline or --timeout \
        passed); 64 bad usage; \
        69 ligasd unreachable, or misconfigured (it cannot start); 73 cannot write the image where it goes; \
        130 interrupted (Ctrl-C).
        """

    static func code(for error: any Error) -> Int32 {
        switch error {
        case ClientError.daemonUnreachable: daemonUnreachable
        case ClientError.timedOut, ClientError.daemonNotReading: busy
        case ClientError.server(let body): code(for: body.code)
        case is CancellationError: interrupted
        case is OutputFileError: cannotWrite
        default: 1
        }
    }

    static func code(for code: ErrorCode) -> Int32 {
        switch code {
        case .notFound: notFound
        case .connectivity, .noCache: unavailable
        case .invalidData: invalidData
        case .tooManyRequests, .quotaExceeded, .shuttingDown, .cutOff, .deadlineExceeded: busy
        case .badRequest, .unknownMethod: usage
        case .misconfigured: daemonUnreachable
        // The client announces 16 MiB frames: a larger answer is unexpected, not the user's doing.
        case .resultTooLarge: 1
        default: 1
        }
    }
}
