import JSON

#if canImport(Glibc)
import Glibc
#endif

/// A command line a POSIX shell (`sh -c`) runs as the same argument vector it was built from:
/// the one quoter of every reproduce line (`run`'s outcome, a suite case's, an HTML page's).
package enum ShellCommand {
  /// The words, each quoted as it needs, joined by spaces.
  package static func line(_ words: [String]) -> String { words.map(quote).joinedText(separator: " ") }

  /// The words that give a run's seed in a reproduce line: `--seed 7`, and `--seed=-3` for a
  /// negative seed, which the argument parser would read as an option if it stood on its own.
  package static func seedWords(_ seed: Int64) -> [String] {
    seed < 0 ? ["--seed=\(seed)"] : ["--seed", String(seed)]
  }

  /// `word` as it is when it holds only characters no shell treats specially; otherwise in
  /// single quotes, with each `'` written `'\''` and each control character (other than a
  /// newline, which single quotes keep as it is) written `"$(printf '\ooo')"`, so the line can
  /// be read and copied without the terminal acting on it.
  package static func quote(_ word: String) -> String {
    guard word.isEmpty || !word.unicodeScalars.allSatisfy(isPlain) else { return word }
    var quoted = "'"
    for scalar in word.unicodeScalars {
      if scalar == "'" {
        quoted += "'\\''"
      } else if isControl(scalar) {
        let octal = String(scalar).utf8.map { "\\" + String($0, radix: 8).leftPadded(to: 3) }.joined()
        quoted += "'\"$(printf '\(octal)')\"'"
      } else {
        quoted.unicodeScalars.append(scalar)
      }
    }
    return quoted + "'"
  }

  private static func isPlain(_ c: Unicode.Scalar) -> Bool {
    switch c {
    case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/", ",", ":", "=", "+", "@", "%": return true
    default: return false
    }
  }

  /// C0 and C1 control characters and DEL, except the newline.
  private static func isControl(_ c: Unicode.Scalar) -> Bool {
    c != "\n" && (c.value < 0x20 || (0x7F...0x9F).contains(c.value))
  }
}

private extension String {
  func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
