import Lifecycle

extension StateText {
  /// BGTaskScheduler requests and tasks, background transfers and external power, in words;
  /// nothing when the app never used them.
  package static func backgroundWork(_ w: BackgroundWorkState) -> [String] {
    var lines: [String] = []
    if !w.pending.isEmpty {
      lines.append("  BGTask requests pending: " + w.pending.map { p in
        "\(p.request.kind.rawValue) \"\(p.request.identifier)\" due at \(VirtualTime.format(p.dueAt)) s"
          + (p.request.requiresExternalPower ? " (needs power)" : "")
      }.joined(separator: ", "))
    }
    if !w.running.isEmpty {
      lines.append("  BGTasks running: " + w.running.map { t in
        "\(t.kind.rawValue) \"\(t.identifier)\" since \(VirtualTime.format(t.startedAt)) s"
          + (t.expiredAt.map { ", expired at \(VirtualTime.format($0)) s" } ?? "")
      }.joined(separator: ", "))
    }
    if !w.registered.isEmpty { lines.append("  launch handlers registered: " + w.registered.joined(separator: ", ")) }
    if !w.transfers.isEmpty {
      lines.append("  background transfers: " + w.transfers.map { t in
        "#\(t.id) in \"\(t.session)\"" + (t.cancelled ? " (cancelled)" : ", done from \(VirtualTime.format(t.startedAt + t.durationUs)) s")
      }.joined(separator: ", "))
    }
    if w.externalPower { lines.append("  external power: on") }
    return lines
  }
}
