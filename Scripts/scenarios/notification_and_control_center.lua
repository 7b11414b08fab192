-- Notification Center and Control Center only make the app inactive (§6; T9, S16).
scenario { name = "notification and control center", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
expect_state("active")
interrupt("notification_center")
end_interrupt("dismissed")
interrupt("control_center")
end_interrupt("dismissed")
expect_calls { "sceneWillResignActive", "sceneDidBecomeActive", "sceneWillResignActive", "sceneDidBecomeActive" }
expect_no_calls { "sceneDidEnterBackground", "viewWillDisappear" }
