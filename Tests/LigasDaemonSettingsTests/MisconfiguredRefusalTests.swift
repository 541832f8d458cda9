@testable import LigasDaemon
import LigasProtocol
import Testing

/// What a socket-activated ligasd with a bad setting sends its waiting clients.
@Suite("The misconfigured refusal")
struct MisconfiguredRefusalTests {
    @Test("A setting's value of any length gives a message cut to 512 bytes, ending with …, in a frame every client accepts")
    func longValueIsCut() throws {
        let error = ConfigurationError(key: "LIGASD_LOG_LEVEL", value: String(repeating: "é", count: 6000), expected: "trace, debug, …")
        let message = MisconfiguredRefusal.shortened("ligasd cannot start: \(error)")
        #expect(message.utf8.count <= MisconfiguredRefusal.messageLimit)
        #expect(message.hasPrefix("ligasd cannot start: LIGASD_LOG_LEVEL=éé") && message.hasSuffix("…"))
        var frame: [UInt8] = []
        let encoder = FrameEncoder(maxFrameSize: ProtocolLimits.minimumMaxFrameSize)
        try encoder.appendError(id: 0, ErrorBody(code: .misconfigured, message: message), to: &frame)
        #expect(frame.count <= ProtocolLimits.minimumMaxFrameSize)
    }

    @Test("A short message is kept whole")
    func shortMessageKept() {
        #expect(MisconfiguredRefusal.shortened("ligasd cannot start: LIGASD_LOG_LEVEL=loud") == "ligasd cannot start: LIGASD_LOG_LEVEL=loud")
    }
}
