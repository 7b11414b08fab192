import AppScan
import EventStore
import Foundation
import Testing
import TestSupport

@Suite struct SARIFTests {
  /// Validates `json` against the SARIF 2.1.0 schema kept with the fixtures (Python's jsonschema,
  /// which `make test-tools` installs); returns the validator's status and message.
  private func validate(_ json: String, name: String) throws -> (status: Int32, err: String) {
    let path = temporaryPath("appscan-sarif", name + ".sarif")
    try json.write(toFile: path, atomically: false, encoding: .utf8)
    let script = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft4Validator(schema).validate(json.load(open(sys.argv[2])))
      """
    let result = try runProcess("/usr/bin/env", ["python3", "-c", script, fixtures + "/sarif-2.1.0-subset.schema.json", path])
    return (result.status, result.err)
  }

  @Test func theSARIFOfEveryFixtureValidates() throws {
    for name in ["SceneRegistrationApp", "HelperRegistrationApp", "StoryboardApp"] {
      let report = try AppScanner.scan([fixtures + "/" + name])
      let result = try validate(report.sarif(toolVersion: "0.0.0").canonicalText, name: name)
      #expect(result.status == 0, "\(name): \(result.err)")
    }
  }

  /// The validator can fail: a result without a message, a level SARIF does not know.
  @Test func theSchemaRefusesWhatSARIFDoesNot() throws {
    let bad = #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"a","level":"fatal","message":{"text":"m"}}]}]}"#
    #expect(try validate(bad, name: "bad-level").status != 0)
    let noMessage = #"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"a"}]}]}"#
    #expect(try validate(noMessage, name: "no-message").status != 0)
  }

  @Test func eachDiagnosticIsAResultAtItsFileAndLineFromTheRepositoryRoot() throws {
    let report = try AppScanner.scan([fixtures + "/SceneRegistrationApp"])
    let run = try #require(report.sarif(toolVersion: "1")["runs"]?.arrayValue?.first)
    let late = try #require(run["results"]?.arrayValue?.first { $0["ruleId"]?.stringValue == "bgtask_registered_late" })
    #expect(late.canonicalText.hasPrefix(#"{"ruleId":"bgtask_registered_late","ruleIndex":2,"level":"error","message":{"text":"BGTask \"com.example.runner.fetch\" is registered from SceneDelegate.scene(_:willConnectTo:options:), after launch: BGTaskScheduler throws for a registration made after application(_:didFinishLaunchingWithOptions:) returns"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"Tests/AppScanTests/Fixtures/SceneRegistrationApp/Runner/SceneDelegate.swift","uriBaseId":"%SRCROOT%"},"region":{"startLine":20}}}],"partialFingerprints":{"primaryLocationLineHash":"#))
    #expect(late["properties"]?.canonicalText == #"{"target":"SceneRegistrationApp"}"#)
    // The root is the repository's: the folder above the fixtures that holds .git.
    let root = try #require(run["originalUriBaseIds"]?["%SRCROOT%"]?["uri"]?.stringValue)
    #expect(root.hasPrefix("file:///") && root.hasSuffix("/") && fixtures.hasPrefix(String(root.dropFirst(7).dropLast())))
  }

  @Test func aPathIsAURIReference() {
    #expect(ScanReport.uri("My App/Scenes#1/A%.swift") == "My%20App/Scenes%231/A%25.swift")
  }
}
