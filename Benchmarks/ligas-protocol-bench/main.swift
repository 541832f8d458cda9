// Micro-benchmark: encode and decode a `teams` response of 24 teams, framing
// included. Run a release build: `swift run -c release ligas-protocol-bench`.
import Foundation
import LigasProtocol

let teamNames = [
    "Liga Deportiva Universitaria de Quito", "Barcelona Sporting Club", "Club Sport Emelec",
    "Independiente del Valle", "Sociedad Deportiva Aucas", "Club Deportivo El Nacional",
    "Universidad Católica", "Delfín Sporting Club", "Mushuc Runa Sporting Club",
    "Club Deportivo Técnico Universitario", "Orense Sporting Club", "Club Deportivo Cuenca",
    "Guayaquil City Fútbol Club", "Gualaceo Sporting Club", "Libertad Fútbol Club",
    "Club Social y Deportivo Macará", "Imbabura Sporting Club", "Manta Fútbol Club",
    "Club Deportivo Olmedo", "9 de Octubre Fútbol Club", "Club Deportivo Universidad Católica B",
    "Chacaritas Fútbol Club", "Vargas Torres", "Cumbayá Fútbol Club",
]

func slug(_ name: String) -> String {
    name.lowercased().folding(options: .diacriticInsensitive, locale: nil)
        .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
}

let teams = teamNames.map { name in
    Team(
        id: slug(name),
        name: name,
        logoURL: URL(string: "https://media.ligapro.ec/logos/equipos/\(slug(name)).png")!,
        dataSource: "ligapro-api"
    )
}
let result = TeamsResult(source: .cache, value: teams)
let frameEncoder = FrameEncoder()

@inline(never)
func encodeFrame(into buffer: inout [UInt8]) {
    buffer.removeAll(keepingCapacity: true)
    do {
        try frameEncoder.appendResponse(id: 7, result, to: &buffer)
    } catch {
        fatalError("encoding failed: \(error)")
    }
}

let warmDecoder = CBORDecoder()
let coldDecoder = CBORDecoder(internsURLs: false)

@inline(never)
func decodeFrame(_ bytes: [UInt8], using cborDecoder: CBORDecoder = warmDecoder) -> TeamsResult {
    var decoder = FrameDecoder()
    decoder.append(bytes)
    do {
        guard let frame = try decoder.nextFrame() else { fatalError("incomplete frame") }
        return try frame.decodePayload(as: TeamsResult.self, using: cborDecoder)
    } catch {
        fatalError("decoding failed: \(error)")
    }
}

/// CPU time of this thread, so other processes on the shared machine do not inflate
/// the figures the way wall-clock time would (they still compete for caches).
func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Runs `body` `iterations` times per round and reports the best round in CPU ns/op.
func measure(iterations: Int, rounds: Int = 7, _ body: () -> Void) -> Double {
    for _ in 0..<(iterations / 10) { body() } // warm-up
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = threadCPUNanoseconds()
        for _ in 0..<iterations { body() }
        best = min(best, Double(threadCPUNanoseconds() - start) / Double(iterations))
    }
    return best
}

var buffer: [UInt8] = []
encodeFrame(into: &buffer)
let encoded = buffer
precondition(decodeFrame(encoded) == result, "round trip changed the value")

// Usage: ligas-protocol-bench [iterations] [encode|decode] (a mode runs only that side, for profiling).
let arguments = CommandLine.arguments.dropFirst()
let iterations = arguments.first.flatMap(Int.init) ?? 20_000
let mode = arguments.dropFirst().first ?? "both"
var sink = 0
let encodeNs = mode == "decode" ? .nan : measure(iterations: iterations) {
    encodeFrame(into: &buffer)
    sink &+= buffer.count
}
let decodeNs = mode == "encode" ? .nan : measure(iterations: iterations) {
    sink &+= decodeFrame(encoded).value.count
}
let coldDecodeNs = mode != "both" ? .nan : measure(iterations: iterations / 4) {
    sink &+= decodeFrame(encoded, using: coldDecoder).value.count
}
// A yardstick for this machine's speed: creating one 37-byte String from bytes.
let sampleName = Array(teamNames[0].utf8)
let stringNs = mode != "both" ? .nan : measure(iterations: iterations * 10) {
    sink &+= sampleName.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self).utf8.count }
}

print("teams response, 24 teams, framing included; best of 7 rounds, thread CPU time")
print("frame bytes: \(encoded.count) (payload \(encoded.count - 12))")
print(String(format: "encode:                    %8.0f ns/op", encodeNs))
print(String(format: "decode:                    %8.0f ns/op", decodeNs))
print(String(format: "decode, URL interning off: %8.0f ns/op  (every URL parsed by Foundation)", coldDecodeNs))
print(String(format: "yardstick, one 37-byte String(decoding:): %.0f ns", stringNs))
if sink == 42 { print("") } // keeps the work observable
