import LigasSystemd
import Logging
import Testing

struct StderrLogHandlerTests {
    /// A logger whose handler writes into a pipe instead of the real stderr.
    func makeLogger(
        _ pipe: CapturePipe, includesCodeLocation: Bool = false, metadataProvider: Logger.MetadataProvider? = nil
    ) -> Logger {
        Logger(label: "ligasd.test") { _ in
            StderrLogHandler(
                logLevel: .trace, metadataProvider: metadataProvider, fileDescriptor: pipe.writeEnd,
                includesCodeLocation: includesCodeLocation)
        }
    }

    @Test("writes level, message and journal-named fields sorted by name on one line")
    func writesOneLine() throws {
        let pipe = try CapturePipe()
        var logger = makeLogger(pipe)
        logger[metadataKey: "request-id"] = "42"

        logger.info("Request served", metadata: ["method": "leagues", "MESSAGE_ID": "\(LigasMessageID.requestServed.hex)"])
        logger.debug("Bye")

        #expect(pipe.readAll() == """
            info Request served LIGAS_METHOD=leagues LIGAS_REQUEST_ID=42 MESSAGE_ID=828ecda7d67d462d8ad4475c581a128c
            debug Bye LIGAS_REQUEST_ID=42

            """)
    }

    @Test("quotes and escapes values so an entry never spans two lines")
    func quotesAndEscapes() throws {
        let pipe = try CapturePipe()
        let logger = makeLogger(pipe)

        logger.warning(
            "Odd input\non two lines",
            metadata: [
                "a-plain": "ünïcode/path:1=2",
                "b-spaces": "two words",
                "c-quotes": #"say "hi""#,
                "d-newlines": "one\ntwo\r\n",
                "e-empty": "",
                "f-backslash": #"C:\dir"#,
                "g-control": "\u{1B}[31mred\u{7F}\u{2028}",
                "h-tab": "a\tb",
            ])

        let expected = #"warning Odd input\non two lines LIGAS_A_PLAIN=ünïcode/path:1=2 LIGAS_B_SPACES="two words" "#
            + #"LIGAS_C_QUOTES="say \"hi\"" LIGAS_D_NEWLINES="one\ntwo\r\n" LIGAS_E_EMPTY="" "#
            + #"LIGAS_F_BACKSLASH="C:\\dir" LIGAS_G_CONTROL="\u{1B}[31mred\u{7F}\u{2028}" LIGAS_H_TAB="a\tb""#
            + "\n"
        #expect(pipe.readAll() == expected)
    }

    @Test("merges handler metadata, provider metadata and call metadata, the call winning")
    func mergesMetadata() throws {
        let pipe = try CapturePipe()
        var logger = makeLogger(pipe, metadataProvider: Logger.MetadataProvider { ["a": "provider", "b": "provider"] })
        logger[metadataKey: "a"] = "handler"
        logger[metadataKey: "c"] = "handler"

        logger.notice("Merged", metadata: ["b": "call"])

        #expect(pipe.readAll() == "notice Merged LIGAS_A=provider LIGAS_B=call LIGAS_C=handler\n")
    }

    @Test("renders nested metadata as text, dictionaries sorted by key")
    func rendersNestedMetadata() throws {
        let pipe = try CapturePipe()
        let logger = makeLogger(pipe)

        logger.info("Nested", metadata: ["teams": ["emelec", "aucas"], "counts": ["y": ["2", "3"], "x": "1"], "none": [:]])

        #expect(pipe.readAll() == #"info Nested LIGAS_COUNTS="[x: 1, y: [2, 3]]" LIGAS_NONE=[:] LIGAS_TEAMS="[emelec, aucas]""# + "\n")
    }

    @Test("adds the error of a log call and, when asked, the code location")
    func addsErrorAndCodeLocation() throws {
        let pipe = try CapturePipe()
        let logger = makeLogger(pipe, includesCodeLocation: true)

        logger.error("Cache write failed", error: DiskFull()); let line = #line

        #expect(pipe.readAll() == #"error Cache write failed LIGAS_ERROR="disk full" CODE_FILE=\#(#fileID) CODE_LINE=\#(line)"# + "\n")
    }

    @Test("writes each entry with one write, so concurrent entries never interleave")
    func concurrentEntriesStayWhole() async throws {
        let pipe = try CapturePipe()
        let logger = makeLogger(pipe)
        let writers = 6
        let entriesPerWriter = 40  // 240 lines of ~120 bytes: well below the 64 KiB a pipe holds unread

        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for entry in 0..<entriesPerWriter {
                        logger.info("entry", metadata: ["writer": "\(writer)", "entry": "\(entry)", "padding": "\(String(repeating: "x", count: 60))"])
                    }
                }
            }
        }

        let lines = pipe.readAll().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == writers * entriesPerWriter)
        let wellFormed = #/info entry LIGAS_ENTRY=\d+ LIGAS_PADDING=x{60} LIGAS_WRITER=\d/#
        #expect(lines.allSatisfy { $0.wholeMatch(of: wellFormed) != nil })
    }
}
