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

--- iPad: types `first` in window 1, opens window 2 and types `second` there, goes home, comes
--- back and focuses window 1; returns what window 1 then shows (the app stores it under
--- "shown.Scene#1", as Scripts/apps/composer.lua does).
function steps.two_window_drafts(first, second)
  launch()
  act("type", first)
  open_window { activity = "compose", from = 1 }
  expect_state("background", 1)
  expect_state("active", 2)
  act("type", second)
  home()
  expect_calls { "Scene#2.sceneDidEnterBackground" }
  launch()
  focus(1)
  expect_state("active", 1)
  return stored("shown.Scene#1")
end

return steps
