import Foundation
import TestSupport
@testable import EventStore

/// A header of one short scenario, for logs written by the tests.
let sampleHeader = LogHeader(lifesim: "0.1.0", lua: "Lua 5.4", profile: .object([("ios", .int(17))]),
                             scenes: true, seed: 1, scripts: [EmbeddedScript(role: "scenario", path: "s.lua", source: "launch()\n")])

/// A copy of the log at `path` with its lines changed by `mutate` (the header is line 0), and
/// each `h` computed again so that the damage is in the form or the order, not in the chain,
/// unless `rehash` is false.
func rehashedCopy(of path: String, rehash: Bool = true, _ mutate: (inout [[UInt8]]) -> Void) throws -> String {
  let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
  if lines.last == [] { lines.removeLast() }
  mutate(&lines)
  if rehash {
    var chain = HashChain()
    for i in lines.indices where lines[i].count > 72 && lines[i].last == UInt8(ascii: "}") {
      let body = Array(lines[i][..<(lines[i].count - 72)]) + [UInt8(ascii: "}")]
      lines[i] = Array(lines[i][..<(lines[i].count - 72)]) + Array(",\"h\":\"".utf8) + chain.link(body) + Array("\"}".utf8)
    }
  }
  let copy = temporaryPath("lifesim-tests", "changed-\(UUID().uuidString).lifelog")
  try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: copy))
  return copy
}

/// A line of the log at `path` with `a` replaced by `b`, for `rehashedCopy`.
func replacing(line: Int, _ a: String, with b: String) -> (inout [[UInt8]]) -> Void {
  { lines in
    let text = String(decoding: lines[line], as: UTF8.self)
    precondition(text.contains(a), "line \(line) has no \(a)")
    lines[line] = Array(text.replacingOccurrences(of: a, with: b).utf8)
  }
}
