#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether text for standard output is coloured, and the one way it is.
package enum TerminalColour {
  /// Colour only on a TTY with `NO_COLOR` unset.
  package static let enabled: Bool = isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil

  /// `text` in colour on a terminal (its own escapes only: text from an app or a log is made
  /// visible with `TerminalText.visible` first).
  package static func paint(_ text: String, _ code: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
