import Foundation
import Testing
import TestSupport

/// Reports and logs of `lifesim test` never land on a script, and no log is lost.
@Suite(.serialized) struct SuiteOutputTests {
  /// Three failing scenarios whose paths an escaping of `/` as `__` alone would confuse.
  private func confusable(_ name: String) throws -> String {
    let failing = "scenario { }\nlaunch()\nexpect_state(\"background\")\n"
    return try scriptFolder(name, ["a/x.lua": failing, "x.lua": failing, "a__x.lua": failing, "100%.lua": failing])
  }

  @Test func everyScenarioKeepsItsOwnLog() throws {
    let dir = try confusable("suite-lognames")
    let junit = temp("lognames.xml")
    let r = try lifesim(["test", ".", "--logs", "logs", "--junit", junit, "-q"], cwd: dir)
    #expect(r.status == 1, "\(r.err)")
    let logs = try FileManager.default.contentsOfDirectory(atPath: dir + "/logs").sorted()
    #expect(logs == ["100%25-ios17.lifelog", "a%2Fx-ios17.lifelog", "a__x-ios17.lifelog", "x-ios17.lifelog"])
    let xml = try String(contentsOfFile: junit, encoding: .utf8)
    for log in logs { #expect(xml.components(separatedBy: "value=\"logs/\(log)\"").count == 2, "\(log) in \(xml)") }
    #expect(try lifesim(["verify", dir + "/logs/a%2Fx-ios17.lifelog"]).status == 0)
  }

  @Test func aLogsFolderHoldingLogsIsReplacedOnlyWithForce() throws {
    let dir = try confusable("suite-oldlogs")
    try FileManager.default.createDirectory(atPath: dir + "/logs", withIntermediateDirectories: true)
    try "precious\n".write(toFile: dir + "/logs/x-ios17.lifelog", atomically: true, encoding: .utf8)
    try "stale\n".write(toFile: dir + "/logs/gone-ios17.lifelog", atomically: true, encoding: .utf8)
    let refused = try lifesim(["test", "x.lua", "--logs", "logs", "-q"], cwd: dir)
    #expect(refused.status == 2)
    #expect(refused.err == "lifesim: logs: already holds logs (gone-ios17.lifelog); refusing to overwrite them (pass --force to replace them)\n")
    #expect(try String(contentsOfFile: dir + "/logs/x-ios17.lifelog", encoding: .utf8) == "precious\n")
    let forced = try lifesim(["test", "x.lua", "--logs", "logs", "-q", "--force"], cwd: dir)
    #expect(forced.status == 1, "\(forced.err)")
    #expect(try lifesim(["verify", dir + "/logs/x-ios17.lifelog"]).status == 0)
    // A log of an earlier run that this run does not write stays as it was.
    #expect(try String(contentsOfFile: dir + "/logs/gone-ios17.lifelog", encoding: .utf8) == "stale\n")
  }

  @Test func twoProcessesShareALogsFolder() throws {
    let many = Dictionary(uniqueKeysWithValues: (1...12).map { i in
      ("s\(i).lua", "scenario { }\nlaunch()\nfor _ = 1, 20 do home() launch() end\nexpect_state(\"background\")\n")
    })
    let dir = try scriptFolder("suite-shared", many)
    let both = try shell("""
      cd \(dir) && \(lifesimBinary) test . --logs logs --force -q -j 2 --shard 1/2 > one.txt 2>&1 & \
      cd \(dir) && \(lifesimBinary) test . --logs logs --force -q -j 2 > two.txt 2>&1; echo $?; wait $!; echo $?
      """)
    #expect(both.out == "1\n1\n", "\(both.out)\(both.err)")
    let two = try String(contentsOfFile: dir + "/two.txt", encoding: .utf8)
    #expect(!two.contains("ERROR"), "\(two)")
    #expect(two.contains("12 cases: 0 passed, 12 failed, 0 skipped, 0 errors"), "\(two)")
    let one = try String(contentsOfFile: dir + "/one.txt", encoding: .utf8)
    #expect(one.contains("6 cases: 0 passed, 6 failed, 0 skipped, 0 errors"), "\(one)")
    let logs = try FileManager.default.contentsOfDirectory(atPath: dir + "/logs").sorted()
    #expect(logs == (1...12).map { "s\($0)-ios17.lifelog" }.sorted(), "\(logs)")
  }

  @Test func noReportLandsOnAScriptEvenWithForce() throws {
    let dir = try scriptFolder("suite-inputs", [
      "s.lua": "scenario { app = \"app.lua\" }\nrequire \"helper\"\nlaunch()\n",
      "app.lua": "app {}\ncontroller \"ViewController\" {}\n",
      "helper.lua": "return {}\n",
    ])
    let app = try String(contentsOfFile: dir + "/app.lua", encoding: .utf8)
    for output in ["s.lua", "app.lua", "helper.lua"] {
      let test = try lifesim(["test", "s.lua", "--junit", output, "--force", "-q"], cwd: dir)
      #expect(test.status == 2)
      #expect(test.err == "lifesim: \(output): is the input \(output); refusing to write over it, even with --force\n", "\(test.err)")
    }
    #expect(try String(contentsOfFile: dir + "/s.lua", encoding: .utf8).hasPrefix("scenario"))
    #expect(try String(contentsOfFile: dir + "/app.lua", encoding: .utf8) == app)
  }

  @Test func aReportIsWrittenAsAnExportIsSoAFolderIsRefusedAndNothingIsLeftBehind() throws {
    let dir = try scriptFolder("suite-report-folder", [
      "s.lua": "scenario { app = \"app.lua\" }\nlaunch()\n",
      "app.lua": "app {}\ncontroller \"ViewController\" {}\n",
    ])
    try FileManager.default.createDirectory(atPath: dir + "/out.xml", withIntermediateDirectories: false)
    let test = try lifesim(["test", "s.lua", "--junit", "out.xml", "--force", "-q"], cwd: dir)
    #expect(test.status == 2)
    #expect(test.err == "lifesim: out.xml: is a directory\n", "\(test.err)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["app.lua", "out.xml", "s.lua"])
  }
}
