-- Two windows of the composer that keeps each draft under its scene's id (docs/model.md §19).
-- It survives a second window (ipad_draft_per_scene.lua), but not a relaunch: the system
-- reclaims the app in the background, and the windows come back as new scenes (Scene#3 and
-- Scene#4) whose ids name no saved draft, so both windows are empty. The case pins the bug
-- (ipad_draft_restored_after_jetsam.lua runs the fixed app, which keeps each draft in its
-- window's restoration activity; these expectations fail against it).
scenario { name = "iPad: a draft kept by scene id is lost at a relaunch", ios = 17, ios_range = "13-27",
           device = "ipad", scenes = true, app = "../apps/composer_per_scene.lua" }

local windows = require "windows"

local first, second = windows.drafts_after_jetsam("hello", "bye")
expect(first == "", "the bug: window 1 comes back empty")
expect(second == "", "the bug: window 2 comes back empty")
