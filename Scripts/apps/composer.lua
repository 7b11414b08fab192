-- A composer for iPad with several windows (docs/model.md §19): each window edits a draft; a
-- window that leaves the screen saves its draft, and one that comes back shows the saved draft
-- again. This version keeps ONE draft for the whole process (`store("draft", …)`): a second
-- window saving its draft overwrites the first's, and the first window comes back showing the
-- second's text. composer_per_scene.lua keeps one draft per scene, under the scene's id.
app { name = "Composer", root = "Editor", multipleScenes = true }

local perScene = DRAFT_PER_SCENE or false
local typed = {}  -- what each window holds, by scene id
local front       -- the scene the user types in: the last one to become active

local function draftKey(scene)
  return perScene and ("draft." .. scene.id) or "draft"
end

function SceneDelegate.sceneDidBecomeActive(scene)
  front = scene.id
end

function SceneDelegate.sceneWillEnterForeground(scene)
  typed[scene.id] = stored(draftKey(scene))
  store("shown." .. scene.id, typed[scene.id] or "")
end

function SceneDelegate.sceneDidEnterBackground(scene)
  if typed[scene.id] then store(draftKey(scene), typed[scene.id]) end
end

controller "Editor" {
  actions = {
    type = function(vc, text) typed[front] = text end,
  },
}
