#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventStore

/// Where `require` looks after the requiring script's own folder: each `--lib` folder, then
/// each folder of `LIFESIM_PATH` (colon-separated), then the bundled library that ships
/// with this lifesim (`Scripts/lib` in a build, `share/lifesim/lib` in an installed tree).
public enum ModuleSearchPath {
  /// The whole search path for a run from the command line.
  public static func folders(libs: [String]) -> [String] {
    var folders = libs
    if let env = getenv("LIFESIM_PATH") {
      folders += String(cString: env).split(separator: ":").map(String.init)
    }
    if let bundled = bundledLibrary() { folders.append(bundled) }
    return folders
  }

  /// Ancestors of the executable searched for `Scripts/lib` (a debug or release build sits
  /// at `.build/<triple>/<configuration>/lifesim`).
  static let ancestorsMax = 6

  /// The bundled helpers (`require` modules), found from the executable's real path.
  public static func bundledLibrary() -> String? { bundledLibraryFolder }

  /// Looked for once per process: a run resolves the search path at each module it reads.
  private static let bundledLibraryFolder = bundledFolder("lib")

  /// The bundled LuaLS annotations (what `lifesim init` points `.luarc.json` at).
  public static func bundledTypes() -> String? { bundledFolder("types") }

  /// `Scripts/<name>` of a build or `share/lifesim/<name>` of an install, found from the
  /// executable's real path (`/proc/self/exe`), whatever the working directory and however
  /// lifesim was started (through `PATH`, a symlink …).
  static func bundledFolder(_ name: String) -> String? {
    guard var dir = POSIXFile.resolvedPath("/proc/self/exe") ?? POSIXFile.resolvedPath(CommandLine.arguments[0]) else { return nil }
    for level in 0..<ancestorsMax {
      guard let slash = dir.lastIndex(of: "/") else { break }
      dir = String(dir[..<slash])
      let installed = level == 0 ? [dir + "/../share/lifesim/" + name] : []
      for candidate in installed + [dir + "/Scripts/" + name] where POSIXFile.isReadable(candidate) {
        return ScriptLoader.normalize(candidate)
      }
    }
    return nil
  }
}
