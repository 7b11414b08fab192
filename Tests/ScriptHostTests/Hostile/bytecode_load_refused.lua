-- outcome: ok
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc)
  local f, err = load("\27Lua\84\0")
  assert(f == nil and err:find("binary chunk"))
end }
