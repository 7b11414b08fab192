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

--- iPad: types `first` in window 1 and `second` in window 2, goes home; the system reclaims the
--- app. The next launch brings back window 2 (the last in front) as Scene#3, and focus(1)
--- window 1 as Scene#4. Returns what each window then shows, window 1's first (the app stores
--- them under "shown.Scene#n").
function windows.drafts_after_jetsam(first, second)
  launch()
  act("type", first)
  open_window { activity = "compose", from = 1 }
  act("type", second)
  home()
  memory_pressure()
  expect_terminated("jetsam")
  launch()
  expect_state("active", 3)
  expect_state("unattached", 1)
  expect_no_calls { "configurationForConnecting" }
  focus(1)
  expect_state("active", 4)
  expect_state("background", 3)
  expect_calls { "Scene#4.willConnectTo" }
  return stored("shown.Scene#4"), stored("shown.Scene#3")
end

return windows
