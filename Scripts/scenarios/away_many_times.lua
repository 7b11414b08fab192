-- Going away and back a hundred times (docs/model.md §3, §8): each return is exactly
-- willEnterForeground → didBecomeActive, with no appearance callbacks and no second
-- viewDidLoad. Uses the bundled helpers in Scripts/lib.
scenario { name = "away many times", ios = 12, scenes = false, app = "../apps/notes.lua" }
local steps = require "steps"

steps.launched()
steps.times(100, function(i)
  steps.away(i % 7 * 10)
  expect_calls { "applicationWillResignActive", "applicationDidEnterBackground",
                 "applicationWillEnterForeground", "applicationDidBecomeActive" }
end)
expect_no_calls { "viewDidLoad" }
expect_state("active")
