-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc)
  for i = 1, 2000 do setmetatable({}, { __gc = function() error("in gc") end }) end
  local t = {} for i = 1, 20000 do t[i] = { i } end
end }
