import Foundation
import Testing
import TestSupport

/// Issue 34: `--wall-limit` covers the host's own work too. An app queues 250,000 transfers (in
/// 125 calls, each well within the limit); delivering them runs no script, so no Lua hook
/// looked at the clock and the verb ran for as long as they took.
@Suite struct HostWorkLimitTests {
  @Test func theWallClockGuardStopsTheHostDeliveringWhatTheAppQueued() throws {
    let dir = try scriptFolder("host-work", [
      "w.lua": """
        app { name = "W", root = "Main" }
        controller "Main" { }
        local function queue()
          for i = 1, 2000 do background_transfer{ session = "s", seconds = 1 } end
        end
        function AppDelegate.didFinishLaunchingWithOptions(application, options)
          for k = 1, 125 do after(0, queue) end
          return true
        end
        """,
      "s.lua": "scenario { app = \"w.lua\" }\nlaunch()\nadvance(2)\ntransfer_done(\"s\")\nexpect_state(\"active\")\n",
    ])
    let r = try lifesim(["run", "s.lua", "-o", "w.lifelog", "-q", "--wall-limit", "1"], cwd: dir)
    #expect(r.status == 2)
    #expect(r.err.contains("s.lua:4: the wall-clock guard stopped the run: the host's work for one verb (delivering or expiring what the app queued) ran for more than 1 s of real time"), "\(r.err)")
  }
}
