-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
local function f(s) return (s:gsub(".", f)) end
controller "Home" { viewDidLoad = function(vc) f("x") end }
