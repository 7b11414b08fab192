-- outcome: crash
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc)
  local f, err = load("local x <" .. "close> = setmetatable({}, {}) while true do end")
  error(err)
end }
