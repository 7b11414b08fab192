/// The common forms of `lifesim run`, read without ArgumentParser: `run FILE`, with `-q`/`--quiet`
/// and `-o`/`--output FILE`, each at most once and in any order. ArgumentParser spends more
/// start-up time on reflection than a one-verb run takes, so a short run would pay mostly for
/// parsing. Anything else (another option, `--output=FILE`, a repeat, a second file, a value that
/// looks like an option, `help`) is left to ArgumentParser, so that its behaviour and messages
/// stay the only ones. lifesimTests hold it to ArgumentParser's reading of every short list of
/// option words.
enum QuickRun {
  /// The request `arguments` (without the program name) make, or nil if ArgumentParser must read them.
  static func request(_ arguments: ArraySlice<String>) -> RunRequest? {
    guard arguments.first == "run" else { return nil }
    var scenario: String?
    var output: String?
    var quiet = false
    var rest = arguments.dropFirst()
    while let word = rest.popFirst() {
      switch word {
      case "-q", "--quiet":
        guard !quiet else { return nil }
        quiet = true
      case "-o", "--output":
        guard output == nil, let value = rest.popFirst(), isPlainValue(value) else { return nil }
        output = value
      default:
        guard scenario == nil, isPlainValue(word), word != "help" else { return nil }
        scenario = word
      }
    }
    guard let scenario else { return nil }
    return RunRequest(scenario: scenario, output: output, quiet: quiet)
  }

  /// A word ArgumentParser can only take as a value: not empty and not starting with `-`.
  private static func isPlainValue(_ word: String) -> Bool { !word.isEmpty && !word.hasPrefix("-") }
}
