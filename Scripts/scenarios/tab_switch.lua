-- Switching tabs (docs/model.md §8; T18): the new tab's viewWillAppear comes before the old one's
-- viewWillDisappear, unlike a push. viewDidLoad runs once per tab.
scenario { name = "tab switch", ios = 17, app = "../apps/shop.lua" }

launch()
expect_state("active")
select_tab(2)
expect_calls { "Cart.viewDidLoad", "Cart.viewWillAppear", "Feed.viewWillDisappear", "Feed.viewDidDisappear", "Cart.viewDidAppear" }
select_tab(1)
select_tab(2)
expect_no_calls { "viewDidLoad" }
expect(stored("cartShown") == true, "the cart was shown")
