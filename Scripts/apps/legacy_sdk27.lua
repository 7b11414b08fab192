-- A small app rebuilt with Xcode 27: app { sdk = 27 } says it links the iOS 27 SDK. Without
-- scenes, iOS 27 refuses to launch it (docs/model.md §13, the scene mandate); with scenes it
-- launches as any scene app. It implements only what both life cycles call.
app { name = "Legacy", root = "Main", sdk = 27 }

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  store("launched", true)
  return true
end

controller "Main" {
  viewDidLoad = function(vc) log("Main loaded") end,
}
