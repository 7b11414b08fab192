-- Planted bug: the export's expiration handler crashes, and the export reports progress every
-- 10 s so the system never expires it: only the user's cancel from the Live Activity reaches it
-- (explore must draw cancel_task from the running continued tasks).
app { name = "Exporter", root = "Home", bgTaskIdentifiers = { "com.example.export.*" } }

local exports = 0

controller "Home" {
  actions = {
    export = function(vc)
      exports = exports + 1
      local id = "com.example.export." .. exports
      BGTaskScheduler:register(id, function(task)
        local done = 0
        task.expirationHandler = function() error("the cancelled export left a half-written file") end
        local function step()
          done = done + 1
          task:updateProgress(done, 1000)
          after(10, step)
        end
        after(10, step)
      end)
      BGTaskScheduler:submit { id = id, kind = "continued", title = "Exporting", subtitle = "1000 photos" }
    end,
  },
}
