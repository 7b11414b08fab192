-- Reusable scenario steps: `local steps = require "steps"` from any scenario.
local steps = {}

--- Leaves the app for `seconds` (home, time passes) and comes back.
function steps.away(seconds)
  home()
  advance(seconds)
  launch()
end

--- Launches and checks the app came up active; resets the expect_calls window.
function steps.launched()
  launch()
  expect_state("active")
end

--- Runs `fn(i)` for i = 1 … n.
function steps.times(n, fn)
  for i = 1, n do fn(i) end
end

return steps
