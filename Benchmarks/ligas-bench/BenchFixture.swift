import Foundation

/// The data ligasd serves during the benchmark: the bundled sample tree, with Serie A grown to
/// 24 teams (the "teams" payload) and two teams whose logos are 1 MiB and 20 MiB, for
/// the streaming figures. It is a ligas-rest tree on disk, served to ligasd as a file:// remote.
struct BenchFixture {
    static let league = "serie-a"
    static let teamCount = 24
    static let imageTeams = [(id: "bench-1mib", bytes: 1 << 20), (id: "bench-20mib", bytes: 20 << 20)]

    let root: URL

    static func create(in directory: URL, sampleData: URL) throws -> BenchFixture {
        let root = directory.appendingPathComponent("remote")
        try FileManager.default.copyItem(at: sampleData, to: root)
        let images = root.appendingPathComponent("images/bench")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)

        var teams: [[String: String]] = []
        for (id, bytes) in imageTeams {
            try pngLike(bytes: bytes).write(to: images.appendingPathComponent("\(id).png"))
            teams.append(["id": id, "name": "Bench \(id)", "logo": "images/bench/\(id).png"])
        }
        for index in teams.count..<teamCount {
            teams.append(["id": "bench-team-\(index)", "name": "Club Deportivo Bench \(index)", "logo": "images/teams/emelec.png"])
        }
        let feed = try JSONSerialization.data(withJSONObject: ["teams": teams], options: [.sortedKeys])
        try feed.write(to: root.appendingPathComponent("leagues/\(league)/teams.json"))
        return BenchFixture(root: root)
    }

    /// A PNG signature followed by pseudo-random bytes: ligasd sniffs the signature, and random
    /// bytes keep SQLite from storing anything smaller than the real size.
    private static func pngLike(bytes: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        data.reserveCapacity(bytes)
        while data.count < bytes {
            withUnsafeBytes(of: generator.next() as UInt64) { data.append(contentsOf: $0) }
        }
        return data.prefix(bytes)
    }
}
