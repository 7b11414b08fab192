-- Before its first process the system reads what the app declares (a background fetch asks
-- whether it declares bgTaskIdentifiers): a trial load of the top level, with no process
-- behind it. This top level tells a trial from a process by whether `log` works, and asks a
-- condition only in the trial, so a run must ask it again at every trial it makes.
app { name = "Probe", root = "Home", bgTaskIdentifiers = { "com.example.refresh" } }
local inProcess = pcall(log, "top level")
if not inProcess then pcall(choose, "Probe.swift:1") end
controller "Home" {}
