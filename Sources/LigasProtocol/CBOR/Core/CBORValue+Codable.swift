/// `CBORValue` can be a member of any Codable type, but only the CBOR coders know how
/// to carry it (they intercept it and write/read the raw item).
extension CBORValue: Codable {
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(
            CBORValue.self, .init(codingPath: decoder.codingPath, debugDescription: "CBORValue needs CBORDecoder")
        )
    }

    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self, .init(codingPath: encoder.codingPath, debugDescription: "CBORValue needs CBOREncoder")
        )
    }
}
