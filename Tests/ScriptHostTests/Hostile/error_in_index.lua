-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) local x = setmetatable({}, { __index = function() error("idx") end }).field end }
