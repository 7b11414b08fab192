-- Notification Center and Control Center only make the app inactive (docs/model.md §7; T9, S16). A full
-- Notification Center pull resigns and becomes active twice on iOS 11 and later (OpenRadar
-- 49216830; knob notificationCenterDoubleActivation); Control Center once.
scenario { name = "notification and control center", ios = 17, scenes = true, app = "../apps/notes.lua" }

launch()
expect_state("active")
interrupt("notification_center")
end_interrupt("dismissed")
interrupt("control_center")
end_interrupt("dismissed")
expect_calls { "sceneWillResignActive", "sceneDidBecomeActive", "sceneWillResignActive", "sceneDidBecomeActive",
               "sceneWillResignActive", "sceneDidBecomeActive" }
expect_no_calls { "sceneDidEnterBackground", "viewWillDisappear" }
