import LigasSystemd
import Testing

struct LigasMessageIDTests {
    @Test("every message id is a distinct 128-bit id in 32 lowercase hex characters")
    func idsAreWellFormedAndDistinct() {
        let ids = LigasMessageID.allCases.map(\.hex)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, "\(id)")
        }
    }

    @Test("message ids never change once released")
    func idsAreStable() {
        #expect(LigasMessageID.daemonStarted.hex == "d55b505394e045239fdff22ef3208ad0")
        #expect(LigasMessageID.daemonStopped.hex == "2c0154e5c5ee4ea7bc65fef9568b6402")
        #expect(LigasMessageID.requestServed.hex == "828ecda7d67d462d8ad4475c581a128c")
        #expect(LigasMessageID.remoteFailedWithFallback.hex == "30fdf3b823a74a888593d184d5c00808")
        #expect(LigasMessageID.cacheValidated.hex == "2a725ccca1d84ef1997708ffabf5d7a3")
        #expect(LigasMessageID.imageStreamed.hex == "9a149b2d037c4f4d99ed786b36ce986a")
        #expect(LigasMessageID.clientProtocolError.hex == "dc552866e5b8418585ecea5f75ac89dc")
        #expect(LigasMessageID.requestBudget.hex == "5d9af89d240b46b088d9c9a710833ed1")
    }

    @Test("tags a log call with the journal's MESSAGE_ID key")
    func metadataUsesMessageIDKey() {
        #expect(LigasMessageID.cacheValidated.metadata == ["MESSAGE_ID": "2a725ccca1d84ef1997708ffabf5d7a3"])
    }
}
