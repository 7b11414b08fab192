-- A background task never ended (docs/model.md §4; S27): killed when the allowance runs out (0x2182bad2).
scenario { name = "background task never ended", ios = 17, ios_range = "13-26", app = "../apps/leaky.lua" }

launch()
home()
advance(29)
expect_state("background")
advance(2)
expect_terminated("background_task_expired")
-- Its expiration handler returned with the task still open, 5 s before the kill: iOS says so
-- in the console, and the run records it (so --strict accepts it only because it is named).
expect_diagnostic("task_open_after_expiration")
