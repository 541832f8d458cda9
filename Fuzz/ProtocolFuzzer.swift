// libFuzzer entry point for the frame decoder and the CBOR decoders, compiled together
// with Sources/LigasProtocol into one module (see scripts/fuzz-protocol), so it can
// switch between the direct and the Codable decoding paths.
//
// Besides "no crash" it checks invariants and traps when one breaks:
//  - the frame decoder yields the same frames for two different splits of the input;
//  - both decoding paths accept exactly the same payloads, with equal values;
//  - whatever decodes re-encodes identically on both paths and decodes back equal;
//  - re-encoding a generic CBORValue is idempotent.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzFrames(bytes)
    fuzzPayload(bytes)
    return 0
}

private let directEncoder = CBOREncoder()
private let codableEncoder: CBOREncoder = {
    var encoder = CBOREncoder()
    encoder.usesDirectCoding = false
    return encoder
}()
private let directDecoder = CBORDecoder(internsURLs: false)
private let codableDecoder: CBORDecoder = {
    var decoder = CBORDecoder()
    decoder.usesDirectCoding = false
    return decoder
}()

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}

// MARK: Frames

private func frames(of bytes: [UInt8], chunk: Int) -> (frames: [Frame], error: FrameError?) {
    var decoder = FrameDecoder(maxFrameSize: 1 << 16)
    var frames: [Frame] = []
    var offset = 0
    do {
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            decoder.append(bytes[offset..<end])
            offset = end
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        return (frames, nil)
    } catch {
        return (frames, error)
    }
}

private func fuzzFrames(_ bytes: [UInt8]) {
    let whole = frames(of: bytes, chunk: max(bytes.count, 1))
    let split = frames(of: bytes, chunk: 1 + Int(bytes.first ?? 0) % 13)
    check(whole.frames == split.frames && whole.error == split.error, "frame split invariance")
    for frame in whole.frames {
        guard let message = try? Message(frame: frame) else { continue }
        if case .response(_, let payload) = message {
            for method in Method.allCases { checkReply(method, payload) }
        }
    }
}

// MARK: Payloads

private func fuzzPayload(_ bytes: [UInt8]) {
    checkPaths(Request.self, bytes)
    checkPaths(Hello.self, bytes)
    checkPaths(ErrorBody.self, bytes)
    checkPaths(StreamHeader.self, bytes)
    checkPaths(StreamEnd.self, bytes)
    for method in Method.allCases { checkReply(method, bytes) }
    _ = try? Request.decode(from: bytes)

    if let value = try? CBORDecoder().decodeValue(from: bytes) {
        let once = value.encoded()
        guard let again = try? CBORDecoder().decodeValue(from: once) else {
            fatalError("invariant broken: a re-encoded CBORValue does not decode")
        }
        check(again.encoded() == once, "CBORValue re-encoding is idempotent")
    }
}

private func checkReply(_ method: Method, _ bytes: [UInt8]) {
    switch method {
    case .ping: checkPaths(PingResult.self, bytes)
    case .leagues: checkPaths(LeaguesResult.self, bytes)
    case .teams: checkPaths(TeamsResult.self, bytes)
    case .players: checkPaths(PlayersResult.self, bytes)
    case .matches: checkPaths(MatchesResult.self, bytes)
    case .image: checkPaths(StreamHeader.self, bytes)
    case .status: checkPaths(DaemonStatus.self, bytes)
    case .describe: checkPaths(InterfaceDescription.self, bytes)
    }
}

private func checkPaths<T: Codable & Equatable>(_ type: T.Type, _ bytes: [UInt8]) {
    let direct = try? directDecoder.decode(T.self, from: bytes)
    let codable = try? codableDecoder.decode(T.self, from: bytes)
    check(direct == codable, "direct and Codable decoding agree for \(T.self)")
    guard let value = direct else { return }
    guard let encoded = try? directEncoder.encode(value), let reference = try? codableEncoder.encode(value) else {
        fatalError("invariant broken: a decoded \(T.self) cannot be encoded")
    }
    check(encoded == reference, "direct and Codable encoding agree for \(T.self)")
    check((try? directDecoder.decode(T.self, from: encoded)) == value, "\(T.self) survives re-encoding")
}
