import ArgumentParser

/// `-o FILE` and `--force`, shared by every command that writes a file: an existing file is
/// never silently overwritten, and an input never at all (see `OutputTarget`).
struct OutputOptions: ParsableArguments {
  @Option(name: .shortAndLong, help: "Write here (the file appears only when complete). An existing file is refused unless --force; an input always.")
  var output: String?

  @Flag(help: "Replace an existing file at -o.")
  var force = false
}
