-- A top level that reads what an earlier process stored: it differs from one process to the
-- next, so a checkpoint taken after it would replay the first process's reading in every later
-- one. Planted bug: the third launch crashes.
app { name = "Counter", root = "Home" }
local launches = (stored("launches") or 0) + 1
function AppDelegate.didFinishLaunchingWithOptions(application, options)
  store("launches", launches)
  if launches == 3 then error("third launch") end
  return true
end
controller "Home" {}
