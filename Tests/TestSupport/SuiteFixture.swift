import Foundation

/// A suite in a fresh temporary folder `name`, for the suite's tests (in process and through the
/// binary): scenarios in a/ and b/ (one passes, one fails, one declares ios_range 15-26), an app
/// in apps/, a module a scenario requires, and a hidden folder that is never searched.
public func suiteFixture(_ name: String) throws -> String {
  let dir = temporaryPath("lifesim-suite", name)
  let files = [
    "a/one.lua": "scenario { name = \"one\", app = \"../apps/app.lua\" }\nlocal h = require \"helper\"\nlaunch()\nexpect_state(\"active\")\nexpect(h.x == 1, \"the helper loaded\")\n",
    "a/helper.lua": "-- a module: scenario { } appears only in this comment\nreturn { x = 1 }\n",
    "apps/app.lua": "app {}\ncontroller \"ViewController\" {}\n",
    "b/later.lua": "scenario { ios_range = \"15-26\" }\nlaunch()\nexpect_state(\"active\")\n",
    "b/failing.lua": "scenario { }\nlaunch()\nhome()\nexpect_state(\"active\")\n",
    ".hidden/ignored.lua": "scenario { }\nlaunch()\n",
  ]
  for (path, text) in files {
    let full = dir + "/" + path
    try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try text.write(toFile: full, atomically: true, encoding: .utf8)
  }
  return dir
}
