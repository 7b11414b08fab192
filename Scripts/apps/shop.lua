-- A tab bar app: Feed and Cart, each in its own navigation controller.
app { name = "Shop", tabs = { "Feed", "Cart" }, container = "navigation" }

local views = 0
controller "Feed" { viewDidLoad = function(vc) views = views + 1 end }
controller "Cart" {
  viewDidLoad = function(vc) views = views + 1 end,
  viewWillAppear = function(vc, animated) store("cartShown", true) end,
}
controller "Product" {}
