-- The floor for the host's call costs: the bare lua5.4 interpreter making the same
-- number of Lua -> Lua calls to an empty function. Prints nanoseconds per call.
local n = tonumber(arg[1]) or 10000000
local function f() end
local start = os.clock()
for i = 1, n do f() end
print(string.format("%.2f", (os.clock() - start) / n * 1e9))
