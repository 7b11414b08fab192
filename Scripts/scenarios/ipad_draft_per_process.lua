-- Two windows of one composer on iPad (docs/model.md §19). The user types in the first window,
-- opens a second, types there and goes home: each window saves its draft as it leaves the
-- screen. Back in the first window its own text should be shown, but the composer keeps one
-- draft for the process: the second window's save overwrote the first's, and the first window
-- shows "bye". The case pins the bug (ipad_draft_per_scene.lua runs the fixed app, whose first
-- window shows "hello"; this expectation fails against it).
scenario { name = "iPad: a draft kept per process is lost to a second window", ios = 17, ios_range = "13-27",
           device = "ipad", scenes = true, app = "../apps/composer.lua" }

local windows = require "windows"

local shown = windows.two_window_drafts("hello", "bye")
expect(shown == "bye", "the bug: the first window shows the second window's draft")
