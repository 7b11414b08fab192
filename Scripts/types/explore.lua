---@meta
-- Lua Language Server annotations for lifesim explore specs (docs/explore.md).

---@class ExploreConfig
---@field app string           # the app script, relative to this file
---@field ios? 12|13|14|15|16|17|18|26|27  # platform profile (default 17; --ios wins)
---@field scenes? boolean      # UIScene life cycle (default: ios >= 13; --no-scenes wins)
---@field steps? integer       # the longest sequence of verbs in a run (default 30; --steps wins)
---@field seed? integer        # the exploration's seed (default 1; --seed wins)
---@field actions? table<string, (string|number|boolean|(string|number|boolean)[])[]>  # argument lists per user action: { type = { "hello", "" } } calls type("hello") and type(""); a list is one call's arguments (default: no arguments)

---Names the app to explore and the defaults of the command line's options.
---@param config ExploreConfig
function explore(config) end

---Declares an invariant, checked after every verb of every run: it fails when the function
---returns false or nil, or raises an error. A finding's scenario copies the function.
---@param name string
---@param check fun(): boolean
function invariant(name, check) end

---The app's state now: "not_running", "inactive", "active", "background" or "suspended".
---@return "not_running"|"inactive"|"active"|"background"|"suspended"
function app_state() end

---A value the app saved with store(key, value), or nil.
---@param key string
---@return any
function stored(key) end
