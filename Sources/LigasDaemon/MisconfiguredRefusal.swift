import Glibc
import LigasProtocol
import LigasSystemd

/// What a socket-activated ligasd does when its settings are wrong. It cannot serve, but the
/// client whose connection started it waits in the listening socket's queue: left there, it would
/// have systemd start ligasd again at once, and again, until the start limit fails the socket,
/// and the client would only see its connection closed. Instead the waiting clients (up to
/// `mostAnswered`) are accepted and told why, `misconfigured` with id 0 (a connection-level
/// refusal, PROTOCOL.md §6), and then ligasd exits.
public enum MisconfiguredRefusal {
    /// At most this many connections are answered: a client reconnecting in a loop must not keep
    /// a ligasd that cannot serve alive (the rest wait for the next start).
    static let mostAnswered = 64
    /// The message's length at most, in UTF-8 bytes: a setting's value (or an unknown name) can be
    /// any length, and a frame sent before the hello must fit the 4096 bytes every client accepts.
    /// The value is cut first (to `valueLimit` characters), so that what was expected is said.
    static let messageLimit = 512
    static let valueLimit = 100
    /// Reads of what a client sent before its connection is closed, at most: a client that keeps
    /// writing must not keep ligasd there.
    static let drainReads = 16

    /// Answers the connections waiting on the socket systemd passed, if any; returns how many.
    @discardableResult
    public static func answerWaitingClients(_ error: ConfigurationError) -> Int {
        guard let socket = try? SocketActivation.listeningSocket() else { return 0 }
        var frame: [UInt8] = []
        let body = ErrorBody(code: .misconfigured, message: shortened("ligasd cannot start: \(error.description(valueLimit: valueLimit))"))
        let encoder = FrameEncoder(maxFrameSize: ProtocolLimits.minimumMaxFrameSize)
        guard (try? encoder.appendError(id: 0, body, to: &frame)) != nil else { return 0 }
        // Non-blocking (as the server would make it): the queue's end is EAGAIN, not a wait for
        // the next client.
        let flags = fcntl(socket.fileDescriptor, F_GETFL)
        guard flags >= 0, fcntl(socket.fileDescriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return 0 }
        var answered = 0
        while answered < mostAnswered {
            let client = accept(socket.fileDescriptor, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            // A few hundred bytes into an empty socket buffer: one write takes them.
            _ = frame.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The client's hello, if it came, is read first: closing with it unread would make the
            // client's next read fail with ECONNRESET rather than end after the error frame.
            withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { buffer in
                var reads = 0
                while reads < drainReads, recv(client, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
            }
            close(client)
            answered += 1
        }
        return answered
    }

    /// `message`, cut at a character boundary to `messageLimit` bytes, marked with "…" if cut.
    static func shortened(_ message: String) -> String {
        guard message.utf8.count > messageLimit else { return message }
        var kept = ""
        for character in message {
            guard kept.utf8.count + character.utf8.count <= messageLimit - 3 else { break }
            kept.append(character)
        }
        return kept + "…"
    }
}
