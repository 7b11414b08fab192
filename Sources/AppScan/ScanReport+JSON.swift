import JSON

extension ScanReport {
  /// The `app` line of `--json` (docs/scan.md): the names first, then the details.
  package var appJSON: JSONValue {
    var sceneDelegates: [(String, JSONValue)] = []
    for type in types(.scene) { sceneDelegates.append((type, .array(selectors(.scene, type: type).map(JSONValue.string)))) }
    var notificationDelegates: [(String, JSONValue)] = []
    for type in types(.notification) {
      notificationDelegates.append((type, .array(selectors(.notification, type: type).map(JSONValue.string))))
    }
    return .object([
      ("kind", .string("app")),
      ("target", .string(target)),
      ("scenes", .bool(scenes)),
      ("app_delegate_methods", .array(selectors(.application).map(JSONValue.string))),
      ("scene_delegate_methods", .object(sceneDelegates)),
      ("bg_task_identifiers", .array(permittedIdentifiers.map(JSONValue.string))),
      ("bg_task_registrations", .array(registrations.map(Self.json))),
      ("background_modes", .array((plistFacts?.backgroundModes ?? []).map(JSONValue.string))),
      ("notification_delegate_set_in", notificationDelegate?.function.map(JSONValue.string) ?? .null),
      ("info_plist", plistJSON),
      ("app_delegate", appDelegate.map(JSONValue.string) ?? .null),
      ("swiftui", .bool(isSwiftUIApp)),
      ("notification_delegate_methods", .object(notificationDelegates)),
      ("background_tasks", .array(backgroundTasks.map(Self.json))),
      ("windows", .array(windows.map { Self.place($0.place) })),
      ("state_restoration", .object([
        ("activity", .bool(restoration.activity)), ("restoration_identifiers", .int(Int64(restoration.restorationIdentifiers))),
        ("save_restore_pair", .bool(restoration.saveRestorePair)),
      ])),
      ("root_controller", rootController.map(JSONValue.string) ?? .null),
      ("deployment_target", deploymentTarget.map(JSONValue.string) ?? .null),
      ("scene_manifest", sceneManifest.map { .string($0.rawValue) } ?? .null),
      ("methods", .array(methods.map(Self.json))),
    ])
  }

  private var plistJSON: JSONValue {
    var members: [(String, JSONValue)]
    switch plist {
    case let .file(path): members = [("file", .string(path))]
    case let .generated(path, merged): members = [("generated_by", .string(path)), ("merged", merged.map(JSONValue.string) ?? .null)]
    case .unknown: return .null
    }
    if let preprocessing = plistFacts?.preprocessing {
      members.append(("preprocessed", .object([
        ("both_branches", .array(preprocessing.undecided.map(JSONValue.string))), ("include_skipped", .bool(preprocessing.includesSkipped)),
      ])))
    }
    return .object(members)
  }

  static func place(_ place: SourcePlace) -> JSONValue {
    .object([("file", .string(place.file)), ("line", .int(Int64(place.line)))])
  }

  private static func json(_ registration: ResolvedRegistration) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("identifier", registration.identifier.map(JSONValue.string) ?? .null),
      ("function", registration.function.map(JSONValue.string) ?? .null),
      ("file", .string(registration.place.file)), ("line", .int(Int64(registration.place.line))),
    ]
    members.append(("reached", .string(registration.reach.name)))
    if case let .deferred(_, by) = registration.reach { members.append(("deferred_by", .string(by))) }
    if let enclosing = registration.enclosing, enclosing != registration.function { members.append(("via", .string(enclosing))) }
    return .object(members)
  }

  private static func json(_ task: BackgroundTask) -> JSONValue {
    .object([("name", task.name.map(JSONValue.string) ?? .null), ("expiration", .string(task.fact.expiration.rawValue)),
             ("file", .string(task.fact.place.file)), ("line", .int(Int64(task.fact.place.line)))])
  }

  private static func json(_ method: DelegateMethod) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("role", .string(method.role.rawValue)), ("type", .string(method.type)), ("selector", .string(method.selector)),
      ("file", .string(method.place.file)), ("line", .int(Int64(method.place.line))),
    ]
    if let condition = method.condition { members.append(("condition", .string(condition))) }
    return .object(members)
  }

  /// A `diagnostic` line: `{"kind":"diagnostic","code":…,"handler"?:…,"file":…,"line":…,"message":…,"rule":…,"source":…}`.
  package static func json(_ diagnostic: ScanDiagnostic) -> JSONValue {
    var members: [(String, JSONValue)] = [("kind", .string("diagnostic")), ("target", .string(diagnostic.target)), ("code", .string(diagnostic.code))]
    if let handler = diagnostic.handler { members.append(("handler", .string(handler))) }
    members += [
      ("file", .string(diagnostic.place.file)), ("line", .int(Int64(diagnostic.place.line))),
      ("message", .string(diagnostic.message)), ("rule", .string(diagnostic.rule.summary)), ("source", .string(diagnostic.rule.source)),
    ]
    if let fingerprint = diagnostic.fingerprint { members.append(("fingerprint", .string(fingerprint))) }
    return .object(members)
  }

}

extension ScanResult {
  /// The `--json` lines before the end line: each app's line, each other target's line, then
  /// one line per diagnostic, app by app.
  package var jsonLines: [JSONValue] {
    let findings = diagnostics.map { diagnostic in
      guard case var .object(members) = ScanReport.json(diagnostic) else { return ScanReport.json(diagnostic) }
      if let state = baselineState(diagnostic) { members.append(("baseline_state", .string(state))) }
      switch diagnostic.confirmation {
      case let .confirmed(scenario, ios, sdk, reproduce)?:
        members.append(("confirmed", .object([("scenario", .string(scenario)), ("ios", .int(Int64(ios))),
                                               ("sdk", sdk.map { .int(Int64($0)) } ?? .null), ("reproduce", .string(reproduce))])))
      case let .unconfirmed(why)?: members += [("confirmed", .bool(false)), ("why", .string(why))]
      case nil: break
      }
      return .object(members)
    }
    return apps.map(\.appJSON) + others.map(Self.json) + findings + (explain ? apps.flatMap(Self.notFollowedLines) : [])
  }

  /// With `--explain`: `{"kind":"not_followed","target":…,"code":…,"file":…,"line":…,"why":…}`.
  private static func notFollowedLines(_ app: ScanReport) -> [JSONValue] {
    app.notFollowed.map { note in
      .object([("kind", .string("not_followed")), ("target", .string(app.target)), ("code", .string(note.code)),
               ("file", .string(note.place.file)), ("line", .int(Int64(note.place.line))), ("why", .string(note.why))])
    }
  }

  /// `{"kind":"target","target":…,"type":"app_extension","delegates":[{"type","adopts","file","line"}]}`.
  private static func json(_ other: OtherTarget) -> JSONValue {
    .object([
      ("kind", .string("target")), ("target", .string(other.name)), ("type", .string(other.kind.rawValue)),
      ("delegates", .array(other.delegates.map {
        .object([("type", .string($0.type)), ("adopts", .string($0.adopts)), ("file", .string($0.place.file)), ("line", .int(Int64($0.place.line)))])
      })),
    ])
  }

  /// The end line's members after `kind`, `command` and `status`: the counts, and the files not read.
  package var endMembers: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [
      ("files", .int(Int64(files.swift.count + files.infoPlists.count + files.storyboards.count + files.projects.count))),
      ("apps", .int(Int64(apps.count))),
      ("diagnostics", .int(Int64(diagnostics.count))),
    ]
    if suppressed > 0 { members.append(("suppressed", .int(Int64(suppressed)))) }
    if let baseline {
      let unchanged = diagnostics.count - failing.count
      members.append(("baseline", .object([("new", .int(Int64(failing.count))), ("unchanged", .int(Int64(unchanged))),
                                           ("absent", .int(Int64(baseline.absent(from: self).count)))])))
    }
    if outsideTargets > 0 { members.append(("outside_targets", .int(Int64(outsideTargets)))) }
    if !syntaxErrors.isEmpty { members.append(("syntax_errors", .array(syntaxErrors.map(ScanReport.place)))) }
    if !troubles.isEmpty {
      members.append(("not_read", .array(troubles.map { .object([("file", .string($0.file)), ("reason", .string($0.reason))]) })))
    }
    return members
  }

  /// The exit status: 2 when a file could not be read, 1 with diagnostics (with a baseline,
  /// new ones), else 0.
  package var status: Int32 { !troubles.isEmpty ? 2 : (failing.isEmpty ? 0 : 1) }
}
