-- outcome: exit2
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc)
  local x <close> = nil
end }
