-- Does 25 s of synchronous work while launching (migrating a database on the
-- main thread): the first frame never comes within 20 s, so the watchdog kills it.
app { name = "Heavy", root = "Home" }

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  work(25)
  return true
end

controller "Home" {
  viewDidLoad = function(vc) log("never reached") end,
}
