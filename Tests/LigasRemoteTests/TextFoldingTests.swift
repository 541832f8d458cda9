import LigasDomain
@testable import LigasRemote
import Testing

/// Name matching without Foundation's ICU-backed folding, and trimming without `CharacterSet`.
@Suite("Text folding and trimming")
struct TextFoldingTests {
    @Test("Folding lower-cases and drops accents, precomposed or combining",
          arguments: [
              ("Cumbayá", "cumbaya"), ("DELANTERO", "delantero"), ("Ñandú Técnico", "nandu tecnico"),
              ("Cumbaya\u{301}", "cumbaya"), ("Über Ça", "uber ca"), ("Liga Pro Serie B", "liga pro serie b"),
          ])
    func folding(text: String, folded: String) {
        #expect(Folded(text).text == folded)
    }

    @Test("Trimming removes spaces, tabs and line breaks at both ends only")
    func trimming() {
        #expect(" \t key = a b \r\n".trimmingWhitespace() == "key = a b")
        #expect("\u{00A0}x\u{2003}".trimmingWhitespace() == "x")
        #expect("   ".trimmingWhitespace() == "")
        #expect("".trimmingWhitespace() == "")
        #expect("a"[...].trimmingWhitespace() == "a")
    }
}
