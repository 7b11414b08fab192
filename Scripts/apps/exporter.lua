-- A photo app whose export goes on when the user leaves it (iOS 26's continued processing
-- task, docs/model.md §16): the export's handler is registered when the user first taps
-- Export (after launch, as a wildcard identifier allows, but before the submit), the request
-- is submitted from the foreground as the tap's result, and the work reports its progress
-- every 10 s so the system does not expire it. The expiration handler — the system's, or the
-- user's cancel in the Live Activity — stops the work and completes the task unsuccessfully.
app { name = "Exporter", root = "Library", bgTaskIdentifiers = { "com.example.exporter.export.*" } }

local PREFIX = "com.example.exporter.export."
local exports = 0
-- Seconds between progress reports: more than continuedNoProgressLimit (30 s) and the system
-- expires the export for want of progress.
local reportSeconds = 10

local function runExport(task)
  local cancelled, done, total = false, 0, 6
  task.expirationHandler = function()
    cancelled = true
    store("export", "cancelled at " .. done .. "/" .. total)
    task:setTaskCompleted(false)
  end
  local function step()
    if cancelled then return end
    done = done + 1
    task:updateProgress(done, total)
    if done == total then
      store("export", "done")
      task:setTaskCompleted(true)
    else
      after(reportSeconds, step)
    end
  end
  after(reportSeconds, step)
end

controller "Library" {
  actions = {
    export = function(vc)
      exports = exports + 1
      local id = PREFIX .. exports
      BGTaskScheduler:register(id, runExport)
      local ok, err = BGTaskScheduler:submit { id = id, kind = "continued", title = "Exporting",
                                               subtitle = "6 photos", strategy = "fail" }
      store("submitted", ok and id or err)
    end,
  },
}
