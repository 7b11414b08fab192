-- The notes app with a synchronous upload in didEnterBackground: it saves the draft in
-- time, inside a background task that it ends, then blocks the main thread for 6 s
-- uploading it before returning. That is past the 5 s budget, so the watchdog kills it
-- (0x8badf00d) at 5 s. Everything else is notes.lua.
UPLOAD_SECONDS = 6
require "notes"
