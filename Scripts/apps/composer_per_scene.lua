-- The composer with its draft kept per scene (under "draft.Scene#n"): each window comes back
-- with its own text, whatever the other windows saved. Everything else is composer.lua.
DRAFT_PER_SCENE = true
require "composer"
