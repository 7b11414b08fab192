-- outcome: watchdog
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc)
  local co = coroutine.create(function() while true do end end)
  coroutine.resume(co)
end }
