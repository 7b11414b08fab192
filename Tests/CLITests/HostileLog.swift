import EventStore
import Foundation

/// Text that breaks out of HTML where it is not escaped: ends a script, opens a comment that
/// swallows the next `</script>`, opens an attribute and a tag that runs script, a quote, an
/// ampersand, the two line separators JavaScript once refused in strings, and control characters.
let hostileText = "</script><!--<script>\"><img src=x onerror=window.pwned=1>'&\u{2028}\u{2029}\u{1}\u{7F}"

/// A scenario file name with markup in it (a file name cannot hold `/`).
let hostileScenarioFile = "h<!--<script>'&\".lua"

/// The hostile text as a Lua string literal.
let hostileLua = "\"</script><!--<script>\\\"><img src=x onerror=window.pwned=1>'&\\u{2028}\\u{2029}\\1\\127\""

/// A run whose every text holds `hostileText`: a `log`, a stored key and value, a failed
/// expectation's message, and a scenario named with markup; its trailer is then rewritten with
/// markup where the outcome's texts are, a string where a count belongs, an object for the
/// other count and a number for a code, and the chain made again (anyone can write a log whose
/// chain verifies). Returns the log's path and the scenario's.
func hostileLog(_ name: String) throws -> (log: String, scenario: String) {
  let dir = try scriptFolder("hostile-\(name)", [
    "app.lua": """
      app { name = "Hostile", root = "Main" }
      function AppDelegate.didFinishLaunchingWithOptions(application, options)
        log(\(hostileLua))
        store(\(hostileLua), \(hostileLua))
        return true
      end
      controller "Main" {}

      """,
    hostileScenarioFile: "scenario { ios = 17, app = \"app.lua\" }\nlaunch()\nexpect(false, \(hostileLua))\n",
  ])
  let log = dir + "/run.lifelog"
  let r = try lifesim(["run", hostileScenarioFile, "-o", log, "-q"], cwd: dir)
  guard r.status == 1 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "hostile run: \(r.status) \(r.err)"]) }
  var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
  guard let trailer = lines.popLast(), let events = trailer.firstMatch(of: /"events":(\d+),"t":(\d+)/) else {
    throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(log): no trailer"])
  }
  lines.append(#"{"kind":"end","events":\#(events.1),"t":\#(events.2),"outcome":{"state":"</script><!--<script>","#
    + #""terminations":[{"reason":"<img src=x onerror=window.pwned=1>","code":7,"description":"'&\#u{2028}"}],"#
    + #""expectations":{"passed":"<img src=x onerror=window.pwned=1>","failed":{"n":1}},"stored":{}}}"#)
  try rechained(lines).write(toFile: log, atomically: true, encoding: .utf8)
  return (log, dir + "/" + hostileScenarioFile)
}

/// `lines` (each with or without its `h`) as a log whose chain verifies.
func rechained(_ lines: [String]) -> String {
  var chain = HashChain()
  var out = ""
  for line in lines {
    var body = line
    if let h = body.range(of: #","h":""#, options: .backwards) { body = String(body[..<h.lowerBound]) + "}" }
    let digest = String(decoding: chain.link(Array(body.utf8)), as: UTF8.self)
    out += String(body.dropLast()) + #","h":""# + digest + "\"}\n"
  }
  return out
}
