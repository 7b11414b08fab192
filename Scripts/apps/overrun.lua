-- Saves its draft synchronously in didEnterBackground and takes 6 s doing it:
-- over the 5 s budget, so the watchdog kills it (0x8badf00d).
app { name = "Notes", root = "NoteList", container = "navigation" }

local function save()
  store("draft", "typed text")
  work(6)
end

function AppDelegate.applicationDidEnterBackground(application) save() end
function SceneDelegate.sceneDidEnterBackground(scene) save() end

controller "NoteList" {}
controller "NoteEditor" {}
