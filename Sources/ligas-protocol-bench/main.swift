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

@inline(never)
func decodeFrame(_ bytes: [UInt8]) -> TeamsResult {
    var decoder = FrameDecoder()
    decoder.append(bytes)
    do {
        guard let frame = try decoder.nextFrame() else { fatalError("incomplete frame") }
        return try frame.decodePayload(as: TeamsResult.self)
    } catch {
        fatalError("decoding failed: \(error)")
    }
}

/// Runs `body` `iterations` times per round and reports the best round, in ns/op,
/// so scheduler noise from the shared machine inflates nothing.
func measure(_ label: String, iterations: Int, rounds: Int = 7, _ body: () -> Void) -> Double {
    for _ in 0..<(iterations / 10) { body() } // warm-up
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        best = min(best, elapsed / Double(iterations))
    }
    return best
}

var buffer: [UInt8] = []
encodeFrame(into: &buffer)
let encoded = buffer
precondition(decodeFrame(encoded) == result, "round trip changed the value")

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
var sink = 0
let encodeNs = measure("encode", iterations: iterations) {
    encodeFrame(into: &buffer)
    sink &+= buffer.count
}
let decodeNs = measure("decode", iterations: iterations) {
    sink &+= decodeFrame(encoded).value.count
}

print("teams response, 24 teams, framing included (best of 7 rounds x \(iterations) ops)")
print("frame bytes: \(encoded.count) (payload \(encoded.count - 12))")
print(String(format: "encode: %8.0f ns/op", encodeNs))
print(String(format: "decode: %8.0f ns/op", decodeNs))
if sink == 42 { print("") } // keeps the work observable
