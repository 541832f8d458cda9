// Direct CBOR codecs of the result envelopes (see `CBORDirectCodable`).

extension Sourced: CBORDirectCodable where Value: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 2)
        out.appendCBORText("value"); try value.writeCBOR(to: &out)
        out.appendCBORText("source"); out.appendCBORText(source.rawValue)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Sourced<Value>, end: Int) {
        var source: Int?
        var value: Result<Value, any Error>?
        let end = try cursor.readMapEntries(at: offset, { key, offset in
            switch key {
            case "source":
                keepFirst(&source, offset)
                return nil
            case "value" where value == nil:
                // Read at once, so the large value is walked once instead of skipped and
                // then read. A failure is held back (and the value skipped, which reports
                // any structural error first) so errors come in the Codable path's order:
                // structure, then `source`, then `value`.
                do {
                    let (decoded, end) = try cursor.withPath(CodingKeys.value) {
                        try Value.readCBOR(at: offset, cursor: cursor)
                    }
                    value = .success(decoded)
                    return end
                } catch {
                    value = .failure(error)
                    return nil
                }
            default:
                return nil
            }
        })
        let resultSource = try cursor.textEnum(ResultSource.self, source, CodingKeys.source)
        guard let value else { throw cursor.missing(CodingKeys.value) }
        return (Sourced(source: resultSource, value: try value.get()), end)
    }
}

extension PingResult: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 0)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: PingResult, end: Int) {
        let end = try cursor.forEachMapEntry(at: offset) { _, _ in }
        return (PingResult(), end)
    }
}
