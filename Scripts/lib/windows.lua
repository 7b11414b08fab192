-- Scenario steps for iPad windows (docs/model.md §19): `local windows = require "windows"`.
local windows = {}

--- iPad: types `first` in window 1, opens window 2 and types `second` there, goes home, comes
--- back and focuses window 1; returns what window 1 then shows (the app stores it under
--- "shown.Scene#1", as Scripts/apps/composer.lua does).
function windows.two_window_drafts(first, second)
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

return windows
