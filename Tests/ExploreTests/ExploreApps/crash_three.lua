-- Planted bug: a crash that needs three verbs in order: a rotation, then the Editor
-- pushed, then a memory warning while it is on screen.
app { name = "Three", root = "Home", container = "navigation" }
local rotated, editing = false, false
controller "Home" {
  viewWillTransitionToSize = function(vc, size) rotated = true end,
}
controller "Editor" {
  viewDidAppear = function(vc, animated) editing = rotated end,
  viewWillDisappear = function(vc, animated) editing = false end,
  didReceiveMemoryWarning = function(vc)
    if editing then error("draft buffer freed while editing") end
  end,
}
controller "About" {}
