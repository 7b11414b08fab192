-- The composer with each window's draft kept where UIKit keeps a window's state: its scene
-- session's restoration activity (docs/model.md §17, §19). The scene's delegate returns the
-- draft from stateRestorationActivity(for:) as the window leaves the screen, and a scene that
-- connects reads it back from session.stateRestorationActivity in willConnectTo, whichever
-- scene number it has after a relaunch. composer_per_scene.lua keys the draft by the scene's
-- id instead, which a relaunch changes.
app { name = "Composer", root = "Editor", multipleScenes = true }

local draftType = "com.example.composer.draft"
local typed = {}  -- what each window holds, by scene id
local front       -- the scene the user types in: the last one to become active

function SceneDelegate.willConnectTo(scene, session, options)
  local saved = session.stateRestorationActivity
  if saved and saved.activityType == draftType then typed[scene.id] = saved.userInfo.draft end
end

function SceneDelegate.sceneDidBecomeActive(scene)
  front = scene.id
end

function SceneDelegate.sceneWillEnterForeground(scene)
  store("shown." .. scene.id, typed[scene.id] or "")
end

function SceneDelegate.stateRestorationActivity(scene)
  if typed[scene.id] then return { activityType = draftType, userInfo = { draft = typed[scene.id] } } end
end

controller "Editor" {
  actions = {
    type = function(vc, text) typed[front] = text end,
  },
}
