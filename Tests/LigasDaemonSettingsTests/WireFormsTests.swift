import Foundation
@testable import LigasDaemon
import LigasDomain
import LigasProtocol
import Synchronization
import Testing

@Suite("ligasd: wire forms of cached lists")
struct WireFormsTests {
    static func teams(_ names: [String]) -> [LigasDomain.Team] {
        names.map { LigasDomain.Team(id: $0, name: $0, logoURL: URL(string: "https://x.test/\($0).png")!, dataSource: .ligasREST) }
    }

    @Test("The same list (the engine's remembered one) is mapped once; an equal list of its own, or a changed one, is mapped anew")
    func mappedOncePerList() {
        let mapped = Atomic<Int>(0)
        let forms = WireForms<String, LigasDomain.Team, LigasProtocol.Team> { team in
            mapped.add(1, ordering: .relaxed)
            return WireMapping.team(team)
        }
        let remembered = Self.teams(["emelec", "aucas"])
        let first = forms.wire(remembered, for: "serie-a")
        #expect(first == remembered.map(WireMapping.team))
        let again = forms.wire(remembered, for: "serie-a")
        #expect(mapped.load(ordering: .relaxed) == 2)
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == first.withUnsafeBufferPointer { $0.baseAddress }, "the same wire array")

        let changed = Self.teams(["emelec", "delfin"])
        #expect(forms.wire(changed, for: "serie-a") == changed.map(WireMapping.team))
        #expect(forms.wire(Self.teams(["emelec", "aucas"]), for: "serie-a") == first, "equal, but not the same storage: mapped")
        #expect(forms.wire(remembered, for: "serie-b") == first, "another call")
        #expect(mapped.load(ordering: .relaxed) == 8)
    }
}
