-- The feed app with an expiration handler that cancels the refresh but forgets to complete
-- the task: 1 s after the expiration handler the system kills it (0x2182bad2). Everything
-- else is feed.lua.
FORGETS_TO_COMPLETE = true
FETCH_SECONDS = 40  -- the download outlasts the refresh task's 30 s
require "feed"
