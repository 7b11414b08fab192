-- An explore spec: the text the user typed survives any termination (the stored draft is as
-- long as the stored length says whenever the app is not running).
explore { app = "editor.lua", ios = 17, steps = 20, actions = { type = { "hello", "" } } }

invariant("the draft survives any termination", function()
  return app_state() ~= "not_running" or #(stored("draft") or "") == (stored("draft_length") or 0)
end)
