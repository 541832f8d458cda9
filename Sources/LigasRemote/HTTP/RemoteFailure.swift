import AsyncHTTPClient
import FoundationEssentials
import Glibc
import LigasDomain
import NIOCore
import NIOHTTP1
import NIOPosix

/// The one place where a failed remote request becomes a `LigasError` with a plain message.
///
/// Every message says what failed and where: the remote's host *with its port*, the HTTP status,
/// or how long was waited. Messages reach users unchanged (ligasd's error frames, ligas-client's
/// stderr), so no library type or case name (`HTTPClientError.…`, `errno: 111`) may leak out:
///
///     cannot reach 127.0.0.1:8123: connection refused
///     127.0.0.1:8123 closed the connection before the response was complete
///     too many redirects (more than 3) from http://127.0.0.1:8123/leagues/serie-a/teams.json
///     127.0.0.1:8123 answered HTTP 500 for /leagues/serie-a/teams.json
///     no answer from 127.0.0.1:8123 within 10 s
///     missing field teams[0].logo in 127.0.0.1:8123's answer for /leagues/serie-a/teams.json
public enum RemoteFailure {
    /// The timeouts and limits a request ran under, to name them in messages.
    struct Limits: Sendable {
        var connectTimeout: TimeAmount
        var readTimeout: TimeAmount
        var requestTimeout: TimeAmount
        var maxRedirects: Int

        init(connectTimeout: TimeAmount, readTimeout: TimeAmount, requestTimeout: TimeAmount, maxRedirects: Int) {
            self.connectTimeout = connectTimeout
            self.readTimeout = readTimeout
            self.requestTimeout = requestTimeout
            self.maxRedirects = maxRedirects
        }
    }

    // MARK: - Where

    /// `host:port`, the port explicit even when it is the scheme's default (`example.com:443`);
    /// IPv6 hosts in brackets. For a `file:` URL, its path.
    public static func origin(of url: URL) -> String {
        if url.isFileURL { return url.path }
        let host = url.host ?? "?"
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.portOrDefault else { return shown }
        return "\(shown):\(port)"
    }

    /// The URL as users may see it: scheme, host, port (when the URL has one) and path; never
    /// the user, password or query, which configured sources may use for credentials.
    public static func redacted(_ url: URL) -> String {
        if url.isFileURL { return "file://\(url.path)" }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "\(url.scheme ?? "?")://\(origin(of: url))\(url.path)"
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "\(url.scheme ?? "?")://\(origin(of: url))\(url.path)"
    }

    // MARK: - What

    /// An answer other than 200: 404 and 410 are `notFound`, anything else `invalidData`.
    static func status(_ status: Int, url: URL) -> LigasError {
        let message = url.isFileURL ? "no file \(url.path) (HTTP \(status))" : "\(origin(of: url)) answered HTTP \(status) for \(url.path)"
        return status == 404 || status == 410 ? .notFound(message) : .invalidData(message)
    }

    /// A payload that breaks its source's contract (`what`, from the mapper: "missing field
    /// teams[1].logo"), said with where it came from.
    static func contractBroken(_ what: String, urls: [URL]) -> LigasError {
        guard let first = urls.first else { return .invalidData(what) }
        let paths = urls.map(\.path).joined(separator: " and ")
        return first.isFileURL ? .invalidData("\(what) in \(paths)") : .invalidData("\(what) in \(origin(of: first))'s answer for \(paths)")
    }

    /// A body over the cap, announced or actual.
    static func bodyTooLarge(_ limit: Int, url: URL) -> LigasError {
        url.isFileURL
            ? .invalidData("\(url.path) is larger than \(limit) bytes")
            : .invalidData("\(origin(of: url)) sent more than \(limit) bytes for \(url.path)")
    }

    /// Anything that stopped a request or its body: `connectivity`, with a plain message.
    /// Cancellation and errors that are already `LigasError`s pass through unchanged.
    static func transfer(_ error: any Error, url: URL, limits: Limits) -> any Error {
        if error is CancellationError { return error }
        if let error = error as? LigasError { return error }
        if let error = error as? HTTPClientError, error == .cancelled { return CancellationError() }
        return LigasError.connectivity(message(for: error, url: url, limits: limits))
    }

    static func message(for error: any Error, url: URL, limits: Limits) -> String {
        let origin = origin(of: url)
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return "cannot reach \(origin): no connection within \(seconds(limits.connectTimeout))"
            case .readTimeout: return "no answer from \(origin) within \(seconds(limits.readTimeout))"
            case .deadlineExceeded: return "\(origin) did not complete the response within \(seconds(limits.requestTimeout))"
            case .remoteConnectionClosed: return "\(origin) closed the connection before the response was complete"
            case .redirectLimitReached: return "too many redirects (more than \(limits.maxRedirects)) from \(redacted(url))"
            case .redirectCycleDetected: return "redirect loop from \(redacted(url))"
            case .tlsHandshakeTimeout: return "TLS handshake with \(origin) timed out"
            case .bodyLengthMismatch: return "\(origin) sent a body of another length than it announced for \(url.path)"
            case .getConnectionFromPoolTimeout: return "cannot reach \(origin): no connection within \(seconds(limits.connectTimeout))"
            case .emptyHost, .invalidURL, .emptyScheme: return "not a usable URL: \(redacted(url))"
            default: return "request to \(origin) failed: \(caseName(of: error))"
            }
        case ChannelError.connectTimeout:
            return "cannot reach \(origin): no connection within \(seconds(limits.connectTimeout))"
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed, ChannelError.alreadyClosed:
            return "\(origin) closed the connection before the response was complete"
        case HTTPParserError.invalidEOFState:
            return "\(origin) closed the connection before the response was complete"
        case let error as HTTPParserError:
            return "\(origin) sent a malformed HTTP response (\(error))"
        case let error as IOError:
            return errnoMessage(error.errnoCode, origin: origin)
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil || error.connectionErrors.isEmpty {
                return "cannot reach \(origin): unknown host name"
            }
            let first = error.connectionErrors[0].error
            if let io = first as? IOError { return errnoMessage(io.errnoCode, origin: origin) }
            return message(for: first, url: url, limits: limits)
        case SocketAddressError.unknown:
            return "cannot reach \(origin): unknown host name"
        default:
            // TLS failures come from NIOSSL, which this module does not import: known by type name.
            let type = String(reflecting: Swift.type(of: error))
            if type.hasPrefix("NIOSSL.") {
                let detail = String(describing: error)
                if detail.contains("CERTIFICATE_VERIFY_FAILED") { return "TLS with \(origin) failed: its certificate is not trusted" }
                if detail.contains("failedToValidateHostname") { return "TLS with \(origin) failed: its certificate is for another host" }
                return "TLS handshake with \(origin) failed"
            }
            return "request to \(origin) failed: \(caseName(of: error))"
        }
    }

    /// Whether the remote closed the connection before any answer came (not a refused connection,
    /// not a timeout): what a stale kept-alive connection gives.
    static func closedBeforeAnswering(_ error: any Error) -> Bool {
        switch error {
        case let error as HTTPClientError: error == .remoteConnectionClosed
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed, HTTPParserError.invalidEOFState: true
        default: false
        }
    }

    /// An error's case in words, without its payload: that may quote what was sent
    /// (`invalidHeaderFieldValues` holds the header values, an API key among them).
    private static func caseName(of error: any Error) -> String {
        words(ofCase: String(String(describing: error).prefix { $0 != "(" }))
    }

    private static func errnoMessage(_ code: Int32, origin: String) -> String {
        switch code {
        case ECONNREFUSED: "cannot reach \(origin): connection refused"
        case ECONNRESET: "\(origin) reset the connection"
        case EPIPE: "\(origin) closed the connection before the request was sent"
        case ETIMEDOUT: "cannot reach \(origin): timed out"
        case EHOSTUNREACH: "cannot reach \(origin): no route to host"
        case ENETUNREACH: "cannot reach \(origin): network unreachable"
        default: "connection to \(origin) failed: \(String(cString: strerror(code)).lowercased())"
        }
    }

    /// "10 s", "0.2 s".
    static func seconds(_ amount: TimeAmount) -> String {
        let nanoseconds = amount.nanoseconds
        if nanoseconds % 1_000_000_000 == 0 { return "\(nanoseconds / 1_000_000_000) s" }
        return "\(Double(nanoseconds) / 1e9) s"
    }

    /// The last identifier of a type or case description, in words: "HTTPClientError.invalidProxyResponse"
    /// becomes "invalid proxy response". Only for failures no case above names.
    static func words(ofCase description: String) -> String {
        guard description.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }) else { return description }
        let name = description.split(separator: ".").last.map(String.init) ?? description
        var text = ""
        for character in name {
            if character.isUppercase, !text.isEmpty { text.append(" ") }
            text.append(contentsOf: character.lowercased())
        }
        return text
    }
}
