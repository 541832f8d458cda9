@testable import LigasDaemon
import LigasProtocol
import Testing

/// What a socket-activated ligasd with a bad setting sends its waiting clients.
@Suite("The misconfigured refusal")
struct MisconfiguredRefusalTests {
    @Test("A setting's value of any length is cut to 100 characters, so that what was expected is still said, in a frame every client accepts")
    func longValueIsCut() throws {
        let error = ConfigurationError(key: "LIGASD_LOG_LEVEL", value: String(repeating: "é", count: 6000), expected: "trace or debug")
        let message = MisconfiguredRefusal.shortened("ligasd cannot start: \(error.description(valueLimit: MisconfiguredRefusal.valueLimit))")
        #expect(message == "ligasd cannot start: LIGASD_LOG_LEVEL=\(String(repeating: "é", count: 100))…: expected trace or debug")
        #expect(message.utf8.count <= MisconfiguredRefusal.messageLimit)
        var frame: [UInt8] = []
        let encoder = FrameEncoder(maxFrameSize: ProtocolLimits.minimumMaxFrameSize)
        try encoder.appendError(id: 0, ErrorBody(code: .misconfigured, message: message), to: &frame)
        #expect(frame.count <= ProtocolLimits.minimumMaxFrameSize)
    }

    @Test("A message longer than 512 bytes all the same (an unknown name of any length) is cut, ending with …")
    func longMessageIsCut() {
        let message = MisconfiguredRefusal.shortened(String(repeating: "LIGASD_X", count: 200))
        #expect(message.utf8.count <= MisconfiguredRefusal.messageLimit && message.hasSuffix("…"))
    }

    @Test("A short message is kept whole")
    func shortMessageKept() {
        #expect(MisconfiguredRefusal.shortened("ligasd cannot start: LIGASD_LOG_LEVEL=loud") == "ligasd cannot start: LIGASD_LOG_LEVEL=loud")
    }
}
