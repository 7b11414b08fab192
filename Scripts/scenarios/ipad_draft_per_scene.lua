-- ipad_draft_per_process.lua with the fixed composer, which keeps each window's draft under its
-- scene's id: the first window comes back with its own text, and this case passes.
scenario { name = "iPad: a draft kept per scene survives a second window", ios = 17, ios_range = "13-27",
           device = "ipad", scenes = true, app = "../apps/composer_per_scene.lua" }

local windows = require "windows"

local shown = windows.two_window_drafts("hello", "bye")
expect(shown == "hello", "the first window shows its own draft")
