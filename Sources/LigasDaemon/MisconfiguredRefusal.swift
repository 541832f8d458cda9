import Glibc
import LigasProtocol
import LigasSystemd

/// What a socket-activated ligasd does when its settings are wrong. It cannot serve, but the
/// client whose connection started it waits in the listening socket's queue: left there, it would
/// have systemd start ligasd again at once, and again, until the start limit fails the socket,
/// and the client would only see its connection closed. Instead every waiting client is accepted
/// and told why, `misconfigured` with id 0 (a connection-level refusal, PROTOCOL.md §6), and then
/// ligasd exits.
public enum MisconfiguredRefusal {
    /// Answers the connections waiting on the socket systemd passed, if any; returns how many.
    @discardableResult
    public static func answerWaitingClients(_ error: ConfigurationError) -> Int {
        guard let socket = try? SocketActivation.listeningSocket() else { return 0 }
        var frame: [UInt8] = []
        let body = ErrorBody(code: .misconfigured, message: "ligasd cannot start: \(error)")
        // Cannot fail: a message of a few hundred bytes, and the smallest frame limit is 4096.
        guard (try? FrameEncoder().appendError(id: 0, body, to: &frame)) != nil else { return 0 }
        // Non-blocking (as the server would make it): the queue's end is EAGAIN, not a wait for
        // the next client.
        let flags = fcntl(socket.fileDescriptor, F_GETFL)
        guard flags >= 0, fcntl(socket.fileDescriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return 0 }
        var answered = 0
        while true {
            let client = accept(socket.fileDescriptor, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            // A few hundred bytes into an empty socket buffer: one write takes them.
            _ = frame.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
            answered += 1
        }
        return answered
    }
}
