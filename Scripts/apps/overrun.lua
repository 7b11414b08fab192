-- The notes app with a slow save: writing the draft blocks the main thread for
-- 6 s inside didEnterBackground, over the 5 s budget, so the watchdog kills it
-- (0x8badf00d) before it can end its background task. Everything else is notes.lua.
SAVE_SECONDS = 6
require "notes"
