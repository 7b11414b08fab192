-- 25 s of work during launch (docs/model.md §6; S26, S28): killed at 20 s, before the first frame.
scenario { name = "launch watchdog", ios = 17, app = "../apps/heavy_launch.lua" }

launch()
expect_terminated("watchdog")
expect_no_calls { "viewDidLoad", "viewDidAppear" }
