-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) tostring(setmetatable({}, { __tostring = function() error("boom") end })) end }
