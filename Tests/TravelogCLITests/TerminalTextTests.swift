import Testing
@testable import TravelogCLI

@Suite("Text from outside printed on a terminal")
struct TerminalTextTests {
    @Test("control characters, line separators and overrides are shown as escapes; every script and emoji is kept")
    func escapes() {
        #expect(TerminalText.escaped("\u{1B}[2J\u{1B}[Hcleared") == "\\u{1B}[2J\\u{1B}[Hcleared")
        #expect(TerminalText.escaped("two\nlines\r\tand\u{07}") == "two\\nlines\\r\\tand\\u{7}")
        #expect(TerminalText.escaped("cut\u{0}here\u{9B}") == "cut\\u{0}here\\u{9B}")
        #expect(TerminalText.escaped("a\u{202E}b\u{2028}") == "a\\u{202E}b\\u{2028}")
        #expect(TerminalText.escaped("Café 東京 👩‍👩‍👧 שלום") == "Café 東京 👩‍👩‍👧 שלום")
        for text in ["\u{1B}]0;title\u{07}", "x\u{08}\u{08}y", "\u{7F}"] {
            #expect(!TerminalText.escaped(text).unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        }
    }
}
