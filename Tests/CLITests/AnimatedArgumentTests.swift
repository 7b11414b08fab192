import Testing

/// The `animated` argument as Lua app code receives it (docs/model.md §8): false for the root
/// at launch and for a tab switch, true for push, pop, present and dismiss.
@Suite struct AnimatedArgumentTests {
  @Test("a Lua app sees animated false at launch and tab switch, true for push, pop, present and dismiss")
  func luaSeesAnimated() throws {
    let app = """
      app { name = "Tabs", tabs = { "Feed", "Cart" }, container = "navigation" }
      local seen = {}
      local function note(vc, animated) seen[#seen + 1] = vc.id .. "=" .. tostring(animated); store("seen", table.concat(seen, " ")) end
      controller "Feed" { viewWillAppear = note }
      controller "Cart" { viewWillAppear = note }
      controller "Detail" { viewWillAppear = note }
      controller "Sheet" { viewWillAppear = note }
      """
    let scenario = """
      scenario { name = "animated", ios = 17, app = "a.lua" }
      launch()
      push("Detail")
      pop()
      select_tab(2)
      present("Sheet", { style = "fullScreen" })
      dismiss()
      expect(stored("seen") == "Feed#1=false Detail#1=true Feed#1=true Cart#1=false Sheet#1=true Cart#1=true", stored("seen"))
      """
    let dir = try scriptFolder("animated", ["a.lua": app, "s.lua": scenario])
    let r = try lifesim(["run", "s.lua", "-q"], cwd: dir)
    #expect(r.status == 0, "\(r.out)\(r.err)")
  }
}
