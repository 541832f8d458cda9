import LigasSystemd
import Testing

struct JournalFieldNameTests {
    @Test(
        "turns a metadata key into a valid journal field name",
        arguments: [
            ("method", "LIGAS_METHOD"),
            ("request-id", "LIGAS_REQUEST_ID"),
            ("requestID", "LIGAS_REQUESTID"),
            ("cache.hit ratio", "LIGAS_CACHE_HIT_RATIO"),
            ("LIGAS_METHOD", "LIGAS_METHOD"),
            ("ligas-method", "LIGAS_METHOD"),
            ("Ligas_Cache", "LIGAS_CACHE"),
            ("ligas", "LIGAS_LIGAS"),
            ("MESSAGE_ID", "MESSAGE_ID"),
            ("message_id", "LIGAS_MESSAGE_ID"),
            ("MESSAGE_ID ", "LIGAS_MESSAGE_ID_"),
            ("MESSAGE", "LIGAS_MESSAGE"),
            ("PRIORITY", "LIGAS_PRIORITY"),
            ("SYSLOG_IDENTIFIER", "LIGAS_SYSLOG_IDENTIFIER"),
            ("1st-attempt", "LIGAS_1ST_ATTEMPT"),
            ("42", "LIGAS_42"),
            ("_private", "LIGAS__PRIVATE"),
            ("__CURSOR", "LIGAS___CURSOR"),
            ("trailing ", "LIGAS_TRAILING_"),
            ("café", "LIGAS_CAF_"),
            ("équipe", "LIGAS__QUIPE"),
            ("e\u{301}quipo", "LIGAS_E_QUIPO"),
            ("⚽️goals", "LIGAS___GOALS"),
            ("a=b", "LIGAS_A_B"),
            ("line\nbreak", "LIGAS_LINE_BREAK"),
            (String(repeating: "x", count: 100), "LIGAS_" + String(repeating: "X", count: 58)),
            ("LIGAS_" + String(repeating: "y", count: 100), "LIGAS_" + String(repeating: "Y", count: 58)),
        ])
    func sanitises(key: String, expected: String) {
        #expect(JournalFieldName.forMetadataKey(key) == expected)
    }

    @Test(
        "drops a key that leaves no letter or digit to name the field",
        arguments: ["", " ", "---", "_", "日本", "ñ", "LIGAS_", "ligas_", "LIGAS___"])
    func drops(key: String) {
        #expect(JournalFieldName.forMetadataKey(key) == nil)
    }

    @Test(
        "always yields a name journald accepts, and sanitising twice changes nothing",
        arguments: ["method", "x-y-z", "9lives", "_x", "Ünïcödé", "a b\tc", String(repeating: "ab-", count: 40), "LIGAS_ok", "MESSAGE_ID"])
    func yieldsValidIdempotentNames(key: String) throws {
        let name = try #require(JournalFieldName.forMetadataKey(key))
        #expect(isValidJournalFieldName(name), "\(name)")
        #expect(JournalFieldName.forMetadataKey(name) == name)
    }

    /// journald's own rule (journal_field_valid), plus: no leading `_`, which marks trusted fields.
    private func isValidJournalFieldName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 64 else { return false }
        guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
        return bytes.allSatisfy {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }
}
