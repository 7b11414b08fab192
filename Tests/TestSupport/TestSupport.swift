import Foundation

/// One seed drives every random choice in a test (SplitMix64): a failure names its seed.
public struct SplitMix64 {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in 0..<n.
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// A fresh path `name` in a per-process folder `folder` under the temporary directory (any old file
/// removed). The folder is removed when the test process exits (`TemporaryFolders`).
public func temporaryPath(_ folder: String, _ name: String) -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(folder)-\(getpid())")
  TemporaryFolders.shared.add(dir.path)
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let path = dir.appendingPathComponent(name).path
  try? FileManager.default.removeItem(atPath: path)
  return path
}

/// Runs `executable` with `args` in `cwd` (default: the current folder), with `env` added to this
/// process's environment (or, with `replacingEnvironment`, instead of it); its status, stdout and stderr.
/// `stdout`: where its standard output goes instead of a pipe read here (a file handle such as
/// `/dev/full`, or a pipe whose reader is closed).
public func runProcess(_ executable: String, _ args: [String], cwd: String? = nil, env: [String: String] = [:],
                       replacingEnvironment: Bool = false, stdout: Any? = nil) throws -> (status: Int32, out: String, err: String) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = args
  if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
  var environment = replacingEnvironment ? [:] : ProcessInfo.processInfo.environment
  for (k, v) in env { environment[k] = v }
  p.environment = environment
  let out = Pipe(), err = Pipe()
  p.standardOutput = stdout ?? out
  p.standardError = err
  try p.run()
  if stdout != nil { try out.fileHandleForWriting.close() }
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// The per-process folders `temporaryPath` made, removed when the test process exits: the tests
/// write logs, release trees and whole built packages there (about 1 GB a run), which filled the
/// machine's temporary directory run after run. `LIFESIM_KEEP_TEST_FILES=1` keeps them, to look
/// at what a failing test wrote.
final class TemporaryFolders: @unchecked Sendable {
  // @unchecked: `folders` is read and written only under `lock`.
  static let shared = TemporaryFolders()
  private let lock = NSLock()
  private var folders: Set<String> = []

  private init() {
    guard ProcessInfo.processInfo.environment["LIFESIM_KEEP_TEST_FILES"] != "1" else { return }
    atexit { TemporaryFolders.shared.removeAll() }
  }

  func add(_ folder: String) {
    lock.lock(); defer { lock.unlock() }
    folders.insert(folder)
  }

  /// Removes every folder made (at exit, when no test is running any more).
  private func removeAll() {
    lock.lock(); defer { lock.unlock() }
    for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
    folders = []
  }
}
