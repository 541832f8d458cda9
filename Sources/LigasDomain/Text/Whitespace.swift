extension StringProtocol {
    /// Without leading and trailing white space (spaces, tabs, line breaks: Unicode's
    /// White_Space). The standard library's, so the daemon needs no Foundation (and no ICU) to
    /// read a config line or a number a provider padded.
    public func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
