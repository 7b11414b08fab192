-- Exercises every determinism trap of stock Lua: pairs over string keys,
-- table.sort, math.random and tostring of tables. The log must be identical
-- byte for byte in every process.
scenario { name = "determinism", ios = 17, seed = 7 }

local t = {}
for i = 1, 50 do t["key" .. i] = i end
local order = {}
for k, v in pairs(t) do order[#order + 1] = k end
local numbers = {}
for i = 1, 300 do numbers[i] = math.random(1, 1000) end
table.sort(numbers)
print(table.concat(order, ","))
print(table.concat(numbers, ",", 1, 20), math.random())
print(tostring({}), tostring(print), string.format("%s", {}))
launch()
expect_state("active")
