// Direct CBOR codecs of the result envelopes (see `CBORDirectCodable`).

extension Sourced: CBORDirectCodable where Value: CBORDirectCodable {
    func writeCBOR(to out: inout [UInt8]) throws {
        out.appendCBORHead(.map, 2)
        out.appendCBORText("value"); try value.writeCBOR(to: &out)
        out.appendCBORText("source"); out.appendCBORText(source.rawValue)
    }

    static func readCBOR(at offset: Int, cursor: CBORCursor) throws -> (value: Sourced<Value>, end: Int) {
        var source, value: Int?
        let end = try cursor.forEachMapEntry(at: offset) { key, offset in
            switch key {
            case "source": keepFirst(&source, offset)
            case "value": keepFirst(&value, offset)
            default: break
            }
        }
        return (Sourced(
            source: try cursor.textEnum(ResultSource.self, source, CodingKeys.source),
            value: try cursor.nested(Value.self, value, CodingKeys.value)
        ), end)
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
