import CSystemd
import Glibc

/// Journal entries of one kind, sent often: the fields every entry of the kind shares
/// (`PRIORITY`, `SYSLOG_IDENTIFIER`, `MESSAGE_ID`, `CODE_FILE`, …) are laid out once, here; each
/// entry writes only its own fields, into one buffer, and goes to `sd_journal_sendv` as iovecs
/// pointing at both. No `Logger.Metadata`, no field-name sanitising, no interpolated strings:
/// this is the path of the one entry every request leaves.
public struct JournalTemplate: Sendable {
    private let fixed: [UInt8]
    private let fixedEnds: [Int]

    /// `fields`: `NAME=value` pairs with names already valid journal field names.
    public init(_ fields: KeyValuePairs<String, String>) {
        var fixed: [UInt8] = []
        var ends: [Int] = []
        for (name, value) in fields {
            fixed.append(contentsOf: name.utf8)
            fixed.append(UInt8(ascii: "="))
            fixed.append(contentsOf: value.utf8)
            ends.append(fixed.count)
        }
        self.fixed = fixed
        self.fixedEnds = ends
    }

    /// Sends the template's fields and those `fill` appends. False when journald did not take the
    /// entry (its socket is gone, or sending failed): the caller decides where it goes instead.
    public func send(_ fill: (inout JournalFields) -> Void) -> Bool {
        var own = JournalFields()
        fill(&own)
        let count = fixedEnds.count + own.ends.count
        return fixed.withUnsafeBytes { fixedBytes in
            own.bytes.withUnsafeBytes { ownBytes in
                withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
                    var index = 0
                    func point(at base: UnsafeRawPointer?, _ ends: [Int]) {
                        var start = 0
                        for end in ends {
                            vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base! + start), iov_len: end - start)
                            index += 1
                            start = end
                        }
                    }
                    point(at: fixedBytes.baseAddress, fixedEnds)
                    point(at: ownBytes.baseAddress, own.ends)
                    return sd_journal_sendv(vectors.baseAddress, Int32(count)) >= 0
                }
            }
        }
    }
}

/// The fields of one entry, beyond its template's, packed back to back.
public struct JournalFields {
    fileprivate var bytes: [UInt8] = []
    fileprivate var ends: [Int] = []

    init() {
        bytes.reserveCapacity(384)
        ends.reserveCapacity(16)
    }

    /// `name` must be a valid journal field name (`[A-Z0-9_]`, see `JournalFieldName`). The value
    /// may hold any bytes: sendv takes lengths, and libsystemd encodes a value with newlines itself.
    public mutating func append(_ name: StaticString, _ value: some StringProtocol) {
        start(name)
        bytes.append(contentsOf: value.utf8)
        ends.append(bytes.count)
    }

    /// An integer in decimal, written straight into the entry (no `String` in between).
    public mutating func append(_ name: StaticString, _ value: some BinaryInteger) {
        start(name)
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
        ends.append(bytes.count)
    }

    private mutating func start(_ name: StaticString) {
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "="))
    }
}
