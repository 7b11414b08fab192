-- UIKit disconnects a background scene to reclaim memory while the process lives (docs/model.md
-- §14; S18, T70, T71): sceneDidDisconnect, the scene and its controllers are released without
-- disappear callbacks, the session is kept. The next launch reconnects it from willConnectTo.
scenario { name = "disconnect scene", ios = 17, scenes = true, app = "../apps/ledger.lua" }

launch()
home()
disconnect_scene(1)
expect_calls { "sceneDidDisconnect" }
expect_no_calls { "viewWillDisappear", "viewDidDisappear", "applicationWillTerminate" }
expect_state("suspended")
launch()
expect_calls { "Accounts#2.init", "willConnectTo", "Accounts#2.viewDidLoad", "sceneWillEnterForeground", "sceneDidBecomeActive" }
expect_no_calls { "configurationForConnecting", "willFinishLaunchingWithOptions", "didFinishLaunchingWithOptions" }
expect_state("active")
