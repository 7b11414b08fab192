-- iOS 27 and an app built with the iOS 27 SDK that has not adopted scenes: UIKit traps
-- while it creates the process's main scene, before any app-delegate method runs
-- (EXC_BREAKPOINT, "UIScene life cycle is required for apps built with this SDK";
-- docs/model.md §13, the scene mandate). The same app built with the iOS 26 SDK launches.
scenario { name = "scene mandate", ios = 27, ios_range = "27", scenes = false, app = "../apps/legacy_sdk27.lua" }

launch()
expect_no_calls { "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions", "viewDidLoad" }
expect_terminated("crash")
expect_state("not_running")
expect_diagnostic("scene_lifecycle_required")
