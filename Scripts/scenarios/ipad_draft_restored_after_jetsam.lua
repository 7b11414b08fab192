-- ipad_draft_lost_after_jetsam.lua with the composer that keeps each window's draft in its
-- scene session's restoration activity: each session gives its own activity back to the scene
-- that reconnects it, so after the relaunch each window shows its own draft (docs/model.md §17).
scenario { name = "iPad: a draft kept in the window's restoration activity survives a relaunch", ios = 17,
           ios_range = "13-27", device = "ipad", scenes = true, app = "../apps/composer_restoring.lua" }

local windows = require "windows"

local first, second = windows.drafts_after_jetsam("hello", "bye")
expect(first == "hello", "window 1 shows its own draft again")
expect(second == "bye", "window 2 shows its own draft again")
