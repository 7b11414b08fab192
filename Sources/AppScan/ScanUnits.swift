/// One thing a scan reports on: an iOS app, scanned in full, or another target (an extension,
/// a watchOS or macOS app), whose delegates are listed as what they are.
struct ScanUnit {
  let name: String
  let kind: TargetKind
  /// The Xcode target, nil when the scan found no project that compiles the scanned files.
  let target: XcodeTarget?
  /// The Swift files it compiles, in path order.
  let swift: [String]
  /// Without a project: the folder the unit was found in (its Info.plist is looked for there).
  let folder: String?
}

/// Splits the scanned files into units: by the targets of the projects found, or, without a
/// project, by the delegates that start an app (`@main`, `@UIApplicationMain`, a macOS or
/// watchOS app delegate), so that two apps are never merged into one.
enum ScanUnits {
  /// The units of a project scan: every target that compiles a scanned file (a library's
  /// files count for the targets that link it); empty when no target compiles any.
  static func fromTargets(_ targets: [XcodeTarget], swift: [String]) -> [ScanUnit] {
    let normalised = swift.map { ScanPath.normalised($0) }
    let byID = Dictionary(targets.map { ($0.project + "#" + $0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // Each target's own files, once (targets × files), then each app's union with its libraries'.
    var own: [String: [Int]] = [:]
    for (key, target) in byID { own[key] = normalised.indices.filter { target.compiles(normalised[$0]) } }
    var units: [ScanUnit] = []
    let duplicated = Set(Dictionary(grouping: targets, by: \.name).filter { $0.value.count > 1 }.keys)
    for target in targets {
      var compiled = libraries(of: target, byID: byID)
      compiled.insert(target.project + "#" + target.id)
      let files = Set(compiled.flatMap { own[$0] ?? [] }).sorted().map { swift[$0] }
      guard !files.isEmpty || target.kind == .iOSApp else { continue }
      let project = ScanPath.folder(of: target.project).split(separator: "/").last.map(String.init) ?? ""
      let name = duplicated.contains(target.name) ? project.replacing(".xcodeproj", with: "") + "/" + target.name : target.name
      units.append(ScanUnit(name: name, kind: target.kind, target: target, swift: files, folder: nil))
    }
    return units.contains { !$0.swift.isEmpty } ? units : []
  }

  /// The libraries a target links, transitively, as `project#id` keys.
  private static func libraries(of target: XcodeTarget, byID: [String: XcodeTarget]) -> Set<String> {
    var found: Set<String> = []
    var queue = target.linkedTargets.map { target.project + "#" + $0 }
    while let key = queue.popLast() {
      guard let linked = byID[key], linked.kind == .library, found.insert(key).inserted, found.count < 1_000 else { continue }
      queue += linked.linkedTargets.map { linked.project + "#" + $0 }
    }
    return found
  }

  /// An app's starting delegate without a project: its type, file and kind.
  struct Anchor {
    let type: String
    let file: String
    let kind: TargetKind
  }

  /// The units without a project. Anchors that are all iOS apps' and at most one: one app of
  /// every file (named after the scanned folder). Otherwise each anchor's folder is the
  /// outermost folder above its file that holds no other anchor's file; a file belongs to the
  /// anchor of the innermost such folder above it, and a file under none is shared by every iOS app.
  static func fromAnchors(_ anchors: [Anchor], swift: [String], scanned: String) -> [ScanUnit] {
    let iOS = anchors.filter { $0.kind == .iOSApp }
    if anchors.count == iOS.count, iOS.count <= 1 {
      return [ScanUnit(name: folderName(scanned), kind: .iOSApp, target: nil, swift: swift, folder: scanned)]
    }
    let files = anchors.map { ScanPath.normalised($0.file) }
    let top = ScanPath.normalised(scanned)
    let roots = anchors.indices.map { index in root(of: files[index], others: files.filter { $0 != files[index] }, top: top) }
    // Anchors of one kind in one folder (a watch app's `App` and its delegate) are one unit.
    var groups: [(kind: TargetKind, root: String, type: String)] = []
    var groupOf: [Int] = []
    for index in anchors.indices {
      if let found = groups.firstIndex(where: { $0.kind == anchors[index].kind && $0.root == roots[index] }) {
        groupOf.append(found)
      } else {
        groupOf.append(groups.count)
        groups.append((anchors[index].kind, roots[index], anchors[index].type))
      }
    }
    var members: [[String]] = Array(repeating: [], count: groups.count)
    for path in swift {
      let key = ScanPath.normalised(path)
      let owners: Set<Int>
      if files.contains(key) {
        // An anchor's file is its own, even when another anchor shares the folder.
        owners = Set(anchors.indices.filter { files[$0] == key }.map { groupOf[$0] })
      } else if let innermost = groups.indices.filter({ ScanPath.contains(groups[$0].root, key) }).map({ groups[$0].root.count }).max() {
        owners = Set(groups.indices.filter { ScanPath.contains(groups[$0].root, key) && groups[$0].root.count == innermost })
      } else {
        owners = Set(groups.indices.filter { groups[$0].kind == .iOSApp })
      }
      for index in owners.sorted() { members[index].append(path) }
    }
    var names: [String: Int] = [:]
    for group in groups { names[folderName(group.root), default: 0] += 1 }
    return groups.indices.map { index in
      let folder = folderName(groups[index].root)
      let name = names[folder, default: 0] > 1 ? groups[index].type : folder
      return ScanUnit(name: name, kind: groups[index].kind, target: nil, swift: members[index], folder: groups[index].root)
    }
  }

  /// The outermost folder above `file`, up to the scanned folder `top`, that holds none of
  /// `others`, else the file's own folder.
  private static func root(of file: String, others: [String], top: String) -> String {
    var folder = ScanPath.folder(of: file)
    var best = folder
    while !others.contains(where: { ScanPath.contains(folder, $0) }) {
      best = folder
      let parent = ScanPath.folder(of: folder)
      if folder == top || parent == folder || !(parent == top || parent.hasPrefix(top == "." ? "" : top + "/")) { break }
      folder = parent
    }
    return best
  }

  /// The folder's own name, however the path was written (`.`, `..`, `~/MyApp/`): a name that
  /// findings' fingerprints carry must not change with the working folder.
  private static func folderName(_ path: String) -> String {
    ScanPath.absolute(path).split(separator: "/").last.map(String.init) ?? "App"
  }
}
