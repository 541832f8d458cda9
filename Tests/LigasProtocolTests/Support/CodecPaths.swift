@testable import LigasProtocol

/// Both encoding/decoding paths: the direct one the library uses for hot wire types,
/// and the generic Codable one that is the reference for their behaviour.
enum CodecPath: String, CaseIterable, CustomStringConvertible {
    case direct, codable

    var description: String { rawValue }

    var encoder: CBOREncoder {
        var encoder = CBOREncoder()
        encoder.usesDirectCoding = self == .direct
        return encoder
    }

    var decoder: CBORDecoder {
        var decoder = CBORDecoder()
        decoder.usesDirectCoding = self == .direct
        return decoder
    }
}
