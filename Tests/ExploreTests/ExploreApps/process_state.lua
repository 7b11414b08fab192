-- What a process starts with must be fresh at every start, however the explorer makes it:
-- an upvalue, a global table, math.random's sequence, tostring's numbering and the heap's
-- size, all read at the top level. A memory warning in the third process crashes with them.
app { name = "Fresh", root = "Main" }
local launches = 0
seen = {}
local draw = math.random(1000000)
local heap = collectgarbage("count")
local id = tostring({})
function AppDelegate.didFinishLaunchingWithOptions(application, options)
  launches = launches + 1
  seen[#seen + 1] = tostring({})
  store("process", (stored("process") or 0) + 1)
  if launches > 1 or #seen > 1 then error("state from an earlier process") end
  return true
end
controller "Main" {
  didReceiveMemoryWarning = function(vc)
    if stored("process") == 3 then error("third process: " .. draw .. " " .. heap .. " " .. id .. " " .. seen[1]) end
  end,
}
