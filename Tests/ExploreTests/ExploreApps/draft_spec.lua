-- An explore spec: the draft app must keep the draft through a memory warning.
explore { app = "draft.lua", ios = 17, steps = 20 }

invariant("the draft survives a memory warning", function()
  return app_state() == "not_running" or stored("draft") ~= "lost"
end)
