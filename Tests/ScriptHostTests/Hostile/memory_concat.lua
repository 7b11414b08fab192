-- outcome: jetsam
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) local s = "x" while true do s = s .. s end end }
