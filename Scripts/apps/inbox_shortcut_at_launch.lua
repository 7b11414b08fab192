-- The inbox app handling a launch quick action in didFinishLaunching and returning false, as
-- Apple's AppChat sample does, so performActionFor does not follow (docs/model.md §15).
-- Everything else is inbox.lua.
HANDLES_SHORTCUT_AT_LAUNCH = true
require "inbox"
