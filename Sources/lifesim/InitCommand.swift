import ArgumentParser
import EventStore
import ScriptHost
#if canImport(Glibc)
import Glibc
#endif
import Render

struct Init: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Write a starter scenario, app, .luarc.json and .luacheckrc into a folder.",
    discussion: helpText("""
      The starter runs green (lifesim run DIR/home_and_return.lua) and is a place to begin:
      change the app to do what yours does, and add scenarios beside it. .luarc.json points
      the Lua Language Server at lifesim's annotations, for completion and checking;
      .luacheckrc gives luacheck the globals of the scenario and app APIs (luacheck . in DIR).
      Existing files are never overwritten: if any of the four exists (even as a link that
      leads nowhere), nothing is written.

      Example:
        lifesim init lifecycle && lifesim run lifecycle/home_and_return.lua
      """)
  )

  @Argument(help: "The folder to write into (created if missing; default: the current folder).")
  var directory = "."

  func run() throws {
    defer { Terminal.flush() }
    guard let types = ModuleSearchPath.bundledTypes() else {
      Terminal.error("cannot find lifesim's Lua annotations (Scripts/types or share/lifesim/types) beside the executable")
      throw ExitCode(Status.trouble)
    }
    let files = Starter.files(types: types)
    if let error = POSIXFile.makeDirectory(directory), !POSIXFile.alreadyExists(error) {
      Terminal.error("\(directory): cannot create the folder: \(POSIXFile.describe(error.code))")
      throw ExitCode(Status.trouble)
    }
    let paths = files.map { (directory == "." ? $0.0 : directory + "/" + $0.0, $0.1) }
    // lstat: a link that leads nowhere is there too (open with O_EXCL refuses it).
    for (path, _) in paths where POSIXFile.existsWithoutFollowing(path) {
      Terminal.error("\(path): already exists; lifesim init writes nothing over existing files")
      throw ExitCode(Status.trouble)
    }
    for (path, text) in paths {
      if let problem = Self.create(path, text) {
        Terminal.error("\(path): \(problem)")
        throw ExitCode(Status.trouble)
      }
      Terminal.write("wrote \(path)")
    }
    Terminal.write("next: lifesim run \(paths[0].0)")
  }

  /// Creates `path` with `text`; never replaces a file (`O_EXCL`). Returns what went wrong.
  private static func create(_ path: String, _ text: String) -> String? {
    let fd: Int32
    switch POSIXFile.openForWriting(path, exclusive: true) {
    case let .success(opened): fd = opened
    case let .failure(error): return POSIXFile.describe(error.code)
    }
    defer { POSIXFile.close(fd) }
    return POSIXFile.writeAll(fd, text: text).map(POSIXFile.describe)
  }
}
