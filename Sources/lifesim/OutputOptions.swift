import ArgumentParser

/// `-o FILE` and `--force`, shared by every command that writes a file: an existing file is
/// never silently overwritten.
struct OutputOptions: ParsableArguments {
  @Option(name: .shortAndLong, help: "Write here. An existing file is refused unless --force.")
  var output: String?

  @Flag(help: "Replace an existing file at -o.")
  var force = false
}
