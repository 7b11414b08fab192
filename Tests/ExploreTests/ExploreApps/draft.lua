-- Planted bug: a memory warning while the Editor is on screen throws the draft away.
app { name = "Draft", root = "List", container = "navigation" }
controller "List" { viewDidLoad = function(vc) store("draft", "kept") end }
controller "Editor" {
  didReceiveMemoryWarning = function(vc) store("draft", "lost") end,
}
