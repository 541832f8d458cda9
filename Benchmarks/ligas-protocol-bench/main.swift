// Micro-benchmark of the wire codec: our CBOR encoder and decoder against Foundation's
// JSONEncoder/JSONDecoder on the same Codable values, in one run. Three messages: a
// `teams` reply of 24 teams, a `matches` reply of 380 matches (a whole season) and a
// `hello`. Run a release build: `swift run -c release ligas-protocol-bench`.
//
// Usage: ligas-protocol-bench [iterations] [MESSAGE [encode|decode]]; naming a message and
// a side runs only that (for profiling with callgrind).
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

let teams = TeamsResult(source: .cache, value: teamNames.map { name in
    Team(
        id: slug(name), name: name,
        logoURL: URL(string: "https://media.ligapro.ec/logos/equipos/\(slug(name)).png")!,
        dataSource: "ligapro-api"
    )
})

/// A double round robin of 20 teams: 380 matches, 300 played and 80 to come.
let matches: MatchesResult = {
    let names = Array(teamNames.prefix(20))
    var previous: [PreviousMatch] = []
    var upcoming: [UpcomingMatch] = []
    let seasonStart = Date(timeIntervalSince1970: 1_739_620_800) // 2025-02-15 12:00 UTC
    var index = 0
    for home in names {
        for away in names where away != home {
            let date = seasonStart.addingTimeInterval(Double(index) * 86_400 / 2)
            let description = "Fecha \(index / 10 + 1)"
            if index < 300 {
                previous.append(PreviousMatch(
                    date: date, description: description, home: home, away: away,
                    winner: index % 3 == 0 ? "draw" : home,
                    highlights: URL(string: "https://www.youtube.com/watch?v=match\(index)")!
                ))
            } else {
                upcoming.append(UpcomingMatch(date: date, description: description, home: home, away: away))
            }
            index += 1
        }
    }
    return MatchesResult(source: .remote, value: Matches(previous: previous, upcoming: upcoming))
}()

let hello = Hello(agent: "ligasd/\(ReleaseVersion.current)")

/// CPU time of this thread, so other processes on the shared machine do not inflate
/// the figures the way wall-clock time would (they still compete for caches).
func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Runs `body` `iterations` times per round and reports the best round in CPU ns/op.
func measure(iterations: Int, rounds: Int = 7, _ body: () -> Void) -> Double {
    for _ in 0..<max(iterations / 10, 1) { body() } // warm-up
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = threadCPUNanoseconds()
        for _ in 0..<iterations { body() }
        best = min(best, Double(threadCPUNanoseconds() - start) / Double(iterations))
    }
    return best
}

nonisolated(unsafe) var sink = 0

/// Keeps a decoded value alive past the optimizer without comparing it (which would be timed too).
@inline(never)
func blackHole<T>(_ value: T) {}

/// One message measured four ways. `weight` scales the iteration count down for big messages.
struct Row {
    let name: String
    let weight: Int
    let cborEncode: () -> Void
    let cborDecode: () -> Void
    let jsonEncode: () -> Void
    let jsonDecode: () -> Void
    let sizes: (cbor: Int, json: Int)

    init<T: Codable & Equatable>(_ name: String, _ value: T, weight: Int) {
        let cborEncoder = CBOREncoder()
        let cborDecoder = CBORDecoder()
        let jsonEncoder = JSONEncoder()
        let jsonDecoder = JSONDecoder()
        let cbor = try! cborEncoder.encode(value)
        let json = try! jsonEncoder.encode(value)
        precondition(try! cborDecoder.decode(T.self, from: cbor) == value, "CBOR round trip changed \(name)")
        precondition(try! jsonDecoder.decode(T.self, from: json) == value, "JSON round trip changed \(name)")
        self.name = name
        self.weight = weight
        sizes = (cbor.count, json.count)
        var buffer: [UInt8] = []
        cborEncode = {
            buffer.removeAll(keepingCapacity: true)
            try! cborEncoder.encode(value, into: &buffer)
            sink &+= buffer.count
        }
        cborDecode = { blackHole(try! cborDecoder.decode(T.self, from: cbor)) }
        jsonEncode = { sink &+= try! jsonEncoder.encode(value).count }
        jsonDecode = { blackHole(try! jsonDecoder.decode(T.self, from: json)) }
    }
}

let rows = [
    Row("teams(24)", teams, weight: 1),
    Row("matches(380)", matches, weight: 16),
    Row("hello", hello, weight: 1),
]

let arguments = CommandLine.arguments.dropFirst()
let iterations = arguments.first.flatMap(Int.init) ?? 10_000
if arguments.count >= 3, let row = rows.first(where: { $0.name.hasPrefix(arguments[arguments.startIndex + 1]) }) {
    let body = arguments[arguments.startIndex + 2] == "encode" ? row.cborEncode : row.cborDecode
    print(String(format: "%.0f ns/op", measure(iterations: max(iterations / row.weight, 1), body)))
    exit(0)
}

print("CBOR (ligas codec) vs JSON (Foundation), same Codable values; best of 7 rounds, thread CPU ns/op")
print("message         bytes cbor/json   cbor enc   json enc  ratio   cbor dec   json dec  ratio")
for row in rows {
    let count = max(iterations / row.weight, 1)
    let cborEncode = measure(iterations: count, row.cborEncode)
    let jsonEncode = measure(iterations: count, row.jsonEncode)
    let cborDecode = measure(iterations: count, row.cborDecode)
    let jsonDecode = measure(iterations: count, row.jsonDecode)
    let paddedName = row.name.padding(toLength: 14, withPad: " ", startingAt: 0)
    print(paddedName + String(
        format: " %7d/%-7d %9.0f  %9.0f  %4.1fx  %9.0f  %9.0f  %4.1fx",
        row.sizes.cbor, row.sizes.json, cborEncode, jsonEncode, jsonEncode / cborEncode,
        cborDecode, jsonDecode, jsonDecode / cborDecode
    ))
    print("RESULT codec message=\(row.name) " + String(
        format: "cbor_encode_ns=%.0f json_encode_ns=%.0f cbor_decode_ns=%.0f json_decode_ns=%.0f",
        cborEncode, jsonEncode, cborDecode, jsonDecode
    ))
}
if sink == 42 { print("") } // keeps the work observable
