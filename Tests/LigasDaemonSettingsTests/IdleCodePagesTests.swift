import Foundation
@testable import LigasDaemon
import Testing

@Suite("ligasd: code pages given back when idle")
struct IdleCodePagesTests {
    typealias Load = IdleCodePages.Load

    @Test("Only segments nothing writes are released, as the whole pages inside them")
    func onlyUnwritableSegments() {
        let loads = [
            Load(virtualAddress: 0, memorySize: 0x1234, writable: false),  // headers, read-only data
            Load(virtualAddress: 0x2000, memorySize: 0x5000, writable: false),  // code
            Load(virtualAddress: 0x8000, memorySize: 0x3000, writable: true),  // RELRO, data, bss
        ]
        #expect(IdleCodePages.unwritablePages(of: loads, base: 0x10000, pageSize: 0x1000) == [0x10000..<0x11000, 0x12000..<0x17000])
    }

    @Test("A page a segment shares with its neighbours, and a segment within one page, are left alone")
    func partialPagesLeftAlone() {
        let loads = [
            Load(virtualAddress: 0x1800, memorySize: 0x2000, writable: false),
            Load(virtualAddress: 0x4100, memorySize: 0x800, writable: false),
            Load(virtualAddress: 0x6000, memorySize: 0, writable: false),
        ]
        #expect(IdleCodePages.unwritablePages(of: loads, base: 0, pageSize: 0x1000) == [0x2000..<0x3000])
    }

    @Test("The executable's ranges lie in mappings it cannot write, and its code still runs after they are released")
    func releasesOnlyReadOnlyMappings() throws {
        let ranges = IdleCodePages.ranges
        #expect(!ranges.isEmpty)
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8).split(separator: "\n").compactMap { line -> (Range<UInt>, Bool)? in
            let fields = line.split(separator: " ")
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2 else { return nil }
            return (bounds[0]..<bounds[1], fields[1].contains("w"))
        }
        for range in ranges {
            let covering = maps.filter { $0.0.overlaps(range) }
            #expect(!covering.isEmpty && covering.allSatisfy { !$0.1 }, "\(range) overlaps a writable mapping, or none")
        }
        IdleCodePages.release()
        #expect(IdleCodePages.unwritablePages(of: [Load(virtualAddress: 0, memorySize: 0x2000, writable: false)], base: 0, pageSize: 0x1000)
            == [0..<0x2000])
    }
}
