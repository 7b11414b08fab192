-- outcome: jetsam
app { root = "Home", container = "navigation" }
controller "Detail" {}
controller "Home" { viewDidLoad = function(vc) local t = {} for i = 1, 1e9 do t[i] = { i } end end }
