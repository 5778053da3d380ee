import SampleSupport
import Testing

@Suite("Text shown on a terminal")
struct TerminalTextTests {
    @Test(
        "control characters and escape sequences are made visible",
        arguments: [
            ("\u{1B}[31mred", "^[[31mred"),
            ("bell\u{7}", "bell^G"),
            ("a\tb\nc\r", "a^Ib^Jc^M"),
            ("del\u{7F}", "del^?"),
            ("csi\u{9B}2J", "csi\\u{9B}2J"),
            ("\u{202E}txt.exe", "\\u{202E}txt.exe"),
            ("\u{1B}]0;title\u{7}", "^[]0;title^G"),
        ])
    func escaped(raw: String, shown: String) {
        #expect(TerminalText.visible(raw) == shown)
    }

    @Test("ordinary text, accents and emoji pass unchanged")
    func ordinaryText() {
        for text in ["Louvre", "Sacré-Cœur", "東京タワー", "🗼 Tower", ""] {
            #expect(TerminalText.visible(text) == text)
        }
    }
}
