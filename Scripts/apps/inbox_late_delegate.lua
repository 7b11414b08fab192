-- The inbox app setting its notification delegate only once it is active: too late for the
-- tap that launched it (docs/model.md §15). Everything else is inbox.lua.
LATE_DELEGATE = true
require "inbox"
