-- An incoming call, declined (docs/model.md §7; T-SO3712979): inactive, then active again.
scenario { name = "call declined", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
expect_state("active")
interrupt("call")
end_interrupt("declined")
expect_calls { "sceneWillResignActive", "sceneDidBecomeActive" }
expect_no_calls { "sceneDidEnterBackground" }
expect_state("active")
