-- The same app run without scenes and built with the iOS 26 SDK: its app-delegate methods are
-- called, and the one the SDK deprecates is named (deprecated_in_sdk);
-- applicationDidEnterBackground is not deprecated.
scenario { name = "half-migrated app without scenes", ios = 26, scenes = false, ios_range = "26",
           app = "../apps/half_migrated.lua" }

launch()
expect_diagnostic("deprecated_in_sdk")
expect(stored("refreshed") == true, "applicationDidBecomeActive ran")
home()
expect(stored("draft") == "saved", "applicationDidEnterBackground saved the draft")
expect_diagnostic("scene_lifecycle_required")
