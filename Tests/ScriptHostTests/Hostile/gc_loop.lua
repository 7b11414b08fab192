-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc)
  setmetatable({}, { __gc = function() while true do end end })
end }
