-- Planted bug: typing updates the draft's length in storage at once, but the text itself is
-- written only by the save action and in applicationWillTerminate. A suspended app never gets
-- willTerminate, so text typed before the system reclaims the app is lost. Finding it needs a
-- user action: act("type", …) before the termination.
app { name = "Editor", root = "Editor" }

local draft = ""

function AppDelegate.didFinishLaunchingWithOptions(application, options)
  draft = stored("draft") or ""
  return true
end

function AppDelegate.applicationWillTerminate(application) store("draft", draft) end

controller "Editor" {
  actions = {
    type = function(vc, text)
      draft = draft .. (text or "")
      store("draft_length", #draft)
    end,
    save = function(vc) store("draft", draft) end,
  },
}
