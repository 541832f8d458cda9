// libFuzzer entry point for the frame decoder and the CBOR decoders, compiled together
// with Sources/LigasProtocol and the tests' independent CBOR parser
// (Tests/LigasProtocolTests/Support/CBORItem.swift) into one module (see scripts/fuzz-protocol).
//
// Besides "no crash" it checks invariants and traps when one breaks:
//  - the frame decoder yields the same frames for two different splits of the input;
//  - the decoder's validation accepts exactly what the independent parser accepts, and
//    what it refuses gets an error with a byte offset;
//  - the URL intern table gives, for any text, what URL(string:) gives, remembered or not;
//  - whatever decodes re-encodes, decodes back equal, and re-encodes to the same bytes,
//    which the independent parser and writer find already deterministic.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    fuzzFrames(bytes)
    fuzzPayload(bytes)
    return 0
}

private let encoder = CBOREncoder()
private let decoder = CBORDecoder()

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
            for method in Methods.all { checkResult(of: method, payload) }
        }
    }
}

// MARK: Payloads

private func fuzzPayload(_ bytes: [UInt8]) {
    checkRoundTrip(Request.self, bytes)
    checkRoundTrip(Hello.self, bytes)
    checkRoundTrip(ErrorBody.self, bytes)
    checkRoundTrip(StreamHeader.self, bytes)
    checkRoundTrip(StreamEnd.self, bytes)
    for method in Methods.all { checkResult(of: method, bytes) }
    _ = try? Request.decode(from: bytes)

    if let text = String(validating: bytes, as: UTF8.self) {
        for _ in 0..<2 { // a miss, then a hit
            let url = bytes.withUnsafeBufferPointer { URLInternTable.shared.url(utf8: $0) }
            check(url == URLInternTable.absoluteURL(text), "the URL intern table gives what absoluteURL gives")
        }
    }

    let oracle = try? CBORItem.parse(bytes)
    do {
        _ = try decoder.decode(AnyWellFormed.self, from: bytes)
        check(oracle != nil, "the decoder accepts only well-formed items")
    } catch let error as CBORDecodingError {
        check(oracle == nil, "the decoder accepts every well-formed item (refused with \(error))")
        check(error.details["offset"] != nil, "a malformed item is refused with an offset (\(error))")
    } catch {
        fatalError("invariant broken: validation threw \(error)")
    }
}

private func checkResult<M: RPCMethod>(of method: M.Type, _ bytes: [UInt8]) {
    checkRoundTrip(M.Result.self, bytes)
}

private func checkRoundTrip<T: Codable & Equatable>(_ type: T.Type, _ bytes: [UInt8]) {
    guard let value = try? decoder.decode(T.self, from: bytes) else { return }
    guard let encoded = try? encoder.encode(value) else {
        fatalError("invariant broken: a decoded \(T.self) cannot be encoded")
    }
    let again = try? decoder.decode(T.self, from: encoded)
    check(again == value, "\(T.self) survives re-encoding")
    check(again.flatMap { try? encoder.encode($0) } == encoded, "\(T.self) re-encodes to the same bytes")
    check((try? CBORItem.parse(encoded).encoded()) == encoded, "\(T.self) is encoded deterministically")
}
