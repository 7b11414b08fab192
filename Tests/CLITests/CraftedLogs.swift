import EventStore
import Foundation

/// A copy of `log` at a fresh path `name` with the first `old` on line `line` (1: the header)
/// replaced by `new`, and every `h` computed again: the chain has no secret, so a crafted log
/// verifies, and only its content can be refused.
func crafted(_ log: String, _ name: String, line: Int, _ old: String, _ new: String) throws -> String {
  var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
  guard let range = lines[line - 1].range(of: old) else { throw CocoaError(.fileReadCorruptFile) }
  lines[line - 1].replaceSubrange(range, with: new)
  var chain = HashChain()
  let suffix = #","h":""#.count + 64 + 2
  let rehashed = lines.map { line in
    let body = String(line.dropLast(suffix)) + "}"
    return String(body.dropLast()) + #","h":""# + String(decoding: chain.link(Array(body.utf8)), as: UTF8.self) + #""}"#
  }
  let path = temp(name)
  try (rehashed.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
  return path
}
