-- Typical pattern use, timed case by case in stock lua5.4 (C matcher) and in lifesim's
-- sandbox (Swift matcher, metered). `lua5.4 bench/patterns.lua` prints "name<TAB>seconds"
-- per case (best of 5); lifesim-bench `patterns` loads the same file and times `cases`.
local lines = {}
for i = 1, 20000 do
  lines[i] = string.format("key%d = value %d with  some   spaces <b>&</b>  ", i, i * 7)
end
local text = table.concat(lines, "\n")
local short = {}
for i = 1, 1000 do short[i] = "user" .. i .. "@example.com:" .. (i * 13) end

local cases = {
  { "gmatch lines + match key=value", function()
    local n = 0
    for line in text:gmatch("[^\n]+") do
      local k, v = line:match("^(%w+)%s*=%s*(.-)%s*$")
      if k then n = n + #v end
    end
    return n
  end },
  { "gmatch words", function()
    local n = 0
    for _ in text:gmatch("%a+") do n = n + 1 end
    return n
  end },
  { "gsub whitespace runs", function() return (text:gsub("%s+", " ")) end },
  { "gsub with a table (escape)", function()
    return (text:gsub("[<>&]", { ["<"] = "&lt;", [">"] = "&gt;", ["&"] = "&amp;" }))
  end },
  { "gsub with a function", function() return (text:gsub("%d+", function(d) return "#" end)) end },
  { "find plain and pattern", function()
    local n = 0
    for i = 1, 100 do
      n = n + (text:find("key19999", 1, true) or 0) + (text:find("%d%d%d%d%d", i) or 0)
    end
    return n
  end },
  { "short match (1000 strings x 100)", function()
    local n = 0
    for _ = 1, 100 do
      for i = 1, #short do
        local user, host, port = short[i]:match("^([^@]+)@([%w.]+):(%d+)$")
        if port then n = n + 1 end
      end
    end
    return n
  end },
  { "trim and split (1000 strings x 100)", function()
    local n = 0
    for _ = 1, 100 do
      for i = 1, #short do
        local s = ("  " .. short[i] .. "  "):match("^%s*(.-)%s*$")
        for part in s:gmatch("[^:@]+") do n = n + 1 end
      end
    end
    return n
  end },
}

if arg then
  for _, case in ipairs(cases) do
    local best = math.huge
    for _ = 1, 5 do
      local start = os.clock()
      case[2]()
      local t = os.clock() - start
      if t < best then best = t end
    end
    print(case[1] .. "\t" .. string.format("%.6f", best))
  end
end
return cases
