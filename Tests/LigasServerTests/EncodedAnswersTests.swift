import Foundation
import LigasProtocol
@testable import LigasServer
import Testing

@Suite("Server: encoded answers kept for cache hits")
struct EncodedAnswersTests {
    @Test("The same result for the same call reuses its encoding; a changed one is encoded anew, never answered with the old bytes")
    func reuseOnlyWhatIsEqual() throws {
        let answers = EncodedAnswers<Methods.Teams>()
        let serieA = TeamsArguments(league: "serie-a")
        let first = try answers.payload(of: TeamsResult.named(["emelec", "aucas"]), answering: serieA)
        let again = try answers.payload(of: TeamsResult.named(["emelec", "aucas"]), answering: serieA)
        #expect(first.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress }, "the kept bytes")

        let changed = TeamsResult.named(["emelec", "aucas", "delfin"])
        let afterChange = try answers.payload(of: changed, answering: serieA)
        #expect(afterChange == (try CBOREncoder().encode(changed)))
        #expect(try CBORDecoder().decode(TeamsResult.self, from: afterChange) == changed)

        let serieB = try answers.payload(of: TeamsResult.named(["emelec", "aucas"]), answering: TeamsArguments(league: "serie-b"))
        #expect(serieB == first, "equal bytes for equal results, whatever the call")
    }
}
