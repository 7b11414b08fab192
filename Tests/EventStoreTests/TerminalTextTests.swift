import Testing
@testable import EventStore

/// Control characters from an app or a log are shown as `\u{HEX}` on a terminal.
@Suite struct TerminalTextTests {
  @Test func controlCharactersAreShownByCodePoint() {
    #expect(TerminalText.visible("a\u{1B}]0;title\u{7}b") == #"a\u{1B}]0;title\u{7}b"#)
    #expect(TerminalText.visible("\u{1B}[1A\u{1B}[2K\r✔") == #"\u{1B}[1A\u{1B}[2K\u{D}✔"#)
    #expect(TerminalText.visible("del\u{7F} csi\u{9B}2J nel\u{85} nbsp\u{A0} é") == #"del\u{7F} csi\u{9B}2J nel\u{85} nbsp é"#.replacingOccurrences(of: "nbsp ", with: "nbsp\u{A0} "))
    #expect(TerminalText.visible("\u{0}\u{1F}") == #"\u{0}\u{1F}"#)
  }

  @Test func lineFeedsAndTabsStayOnlyWhenTheLayoutIsKept() {
    #expect(TerminalText.visible("one\ntwo\tthree") == #"one\u{A}two\u{9}three"#)
    #expect(TerminalText.visible("one\ntwo\tthree\u{1B}", keepingLayout: true) == "one\ntwo\tthree\\u{1B}")
  }

  @Test func textWithoutControlsIsReturnedAsIs() {
    for text in ["", "plain", "✔ ✘ → ← ◆ ●", "Ça va? ¡Sí! ½ ©"] { #expect(TerminalText.visible(text) == text) }
  }
}
