import Testing
@testable import ScriptHost

/// A verb given an argument of the wrong kind stops the run at the scenario line, saying what it
/// expected and what it was given.
@Suite struct VerbArgumentErrorTests {
  @Test(arguments: [
    ("quick_action(5)", "quick_action: expected a shortcut item type, not 5"),
    ("quick_action()", "quick_action: expected a shortcut item type, not nil"),
    ("bg_task({ id = \"x\" })", "bg_task: expected a task identifier, not a table"),
    ("disconnect_scene(1.5)", "disconnect_scene: expected a scene number (1 names Scene#1), not 1.5"),
    ("disconnect_scene(0)", "disconnect_scene: expected a scene number (1 names Scene#1), not 0"),
    ("rotate(\"up\")", "rotate: expected one of \"portrait\", \"landscape\", not \"up\""),
    ("rotate(3)", "rotate: expected one of \"portrait\", \"landscape\", not 3"),
    ("power(\"on\")", "power: expected true or false, not \"on\""),
    ("select_tab(\"2\")", "select_tab: expected a tab number (1 is the first), not \"2\""),
    // An empty string names nothing, and an argument the verb does not take is not ignored.
    ("universal_link(\"\")", "universal_link: expected a URL string, not an empty string"),
    ("push(\"\")", "push: expected a controller name, not an empty string"),
    ("home(\"now\")", "home: takes no arguments, not 1 (the extra one is \"now\")"),
    ("push(\"Detail\", true)", "push: takes 1 argument, not 2 (the extra one is true)"),
    ("present(\"Detail\", { style = \"pageSheet\" }, 3)", "present: takes 2 arguments, not 3 (the extra one is 3)"),
  ])
  func wrongKind(_ call: String, _ message: String) throws {
    let result = try runScenario("launch()\n\(call)\n")
    #expect(result.exitStatus == 2)
    #expect(result.error?.hasSuffix("s.lua:2: \(message)") == true, "\(result.error ?? "")")
  }
}
