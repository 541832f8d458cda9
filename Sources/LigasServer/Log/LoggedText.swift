/// Text a client chose (an id, an error message that quotes it) as a request's log entry carries
/// it: at most `limit` characters, the cut saying how long the text was. A request is logged at
/// the default level, so without a cap a client sending 1 MiB ids wrote 100 MB of log a second.
enum LoggedText {
    static let limit = 256

    static func cut(_ text: String) -> String {
        guard text.utf8.count > limit, text.count > limit else { return text }
        return "\(text.prefix(limit))… (\(text.utf8.count) bytes)"
    }
}
