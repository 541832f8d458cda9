/// Text a client chose (an id, an error message that quotes it, a method name) as the log
/// carries it: at most `limit` Unicode scalars, the cut saying how long the text was. Requests and
/// protocol errors are logged at the default level, so without a cap a client sending 1 MiB ids
/// wrote 100 MB of log a second. Scalars, not characters: one character may hold any number of
/// combining marks.
enum LoggedText {
    static let limit = 256

    static func cut(_ text: String) -> String {
        guard text.utf8.count > limit else { return text }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
        guard kept.utf8.count < text.utf8.count else { return text }
        return "\(kept)… (\(text.utf8.count) bytes)"
    }
}
