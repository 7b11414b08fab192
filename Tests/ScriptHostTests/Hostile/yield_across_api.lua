-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" { viewDidLoad = function(vc) coroutine.yield() end }
controller "Home" { viewDidAppear = function(vc) coroutine.wrap(function() push("Detail") end)() end }
