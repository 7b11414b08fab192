-- outcome: jetsam
-- (64 MiB of app memory run out before Lua's 1,000,000-slot stack limit: the kill is jetsam)
app { root = "Home", container = "navigation" }
controller "Detail" {}
local function f() return 1 + f() end
controller "Home" { viewDidLoad = function(vc) f() end }
