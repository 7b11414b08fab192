-- Planted bug: a crash that needs the app's undecided conditions to come out one way in one
-- launch (Gate.swift:3 true, Gate.swift:4 false, Gate.swift:5 true); Gate.swift:6 and
-- Gate.swift:7 are asked too, and do not matter. The seed alone gives every run the same
-- outcomes, so only steering them finds it.
app { name = "Gate", root = "Home" }
local armed = false

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  local a, b, c = choose("Gate.swift:3"), choose("Gate.swift:4"), choose("Gate.swift:5")
  choose("Gate.swift:6"); choose("Gate.swift:7")
  armed = a and not b and c
  return true
end

function SceneDelegate.sceneDidEnterBackground(scene)
  if armed then error("the sync ran with a stale token") end
end

controller "Home" {}
