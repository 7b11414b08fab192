extension TimelinePage {
  /// The program of a page of a run that has had several scenes: `script` with its lanes grouped
  /// per scene (each scene's state band, then its scene delegate's marks, then its controllers),
  /// reading each row's scene from its twelfth cell. A one-scene page keeps `script` and its bytes.
  static let sceneScript = replacing(script, [
    (#"""
    const lanes = [
    """#, #"""
    const SCENE = 11;
    for (const r of rows) { if (r[SCENE] !== null) r[SCENE] = names[r[SCENE]]; }
    // A controller belongs to the scene of the first callback it received.
    const sceneOf = new Map();
    for (const r of rows) {
      if (r[KIND] === "callback" && r[SCENE] !== null && controllerSet.has(r[TARGET]) && !sceneOf.has(r[TARGET])) sceneOf.set(r[TARGET], r[SCENE]);
    }
    const sceneLayers = [...layers.keys()].filter((l) => l.startsWith("scene "));
    const sceneNames = new Set(sceneLayers.map((l) => "Scene#" + l.slice(6)));
    const controllerLane = (c) => ({ id: c, title: (sceneNames.has(sceneOf.get(c)) ? sceneOf.get(c) + " " : "") + c, band: "controller " + c, marks: true });
    const sceneGroups = sceneLayers.flatMap((l) => {
      const scene = "Scene#" + l.slice(6);
      return [{ id: l, title: scene + " state", band: l }, { id: scene + " SceneDelegate", title: scene + " SceneDelegate", marks: true },
        ...controllers.filter((c) => sceneOf.get(c) === scene).map(controllerLane)];
    });
    const lanes = [
    """#),
    (#"""
      ...[...layers.keys()].filter((l) => l.startsWith("scene ")).map((l) => ({ id: l, title: l + " state", band: l })),
    """#, #"""
      ...sceneGroups,
    """#),
    (#"""
      ...controllers.map((c) => ({ id: c, title: c, band: "controller " + c, marks: true })),
    """#, #"""
      ...controllers.filter((c) => !sceneNames.has(sceneOf.get(c))).map(controllerLane),
    """#),
    (#"""
        case "callback": return r[TARGET] === "AppDelegate" || r[TARGET] === "SceneDelegate" || controllerSet.has(r[TARGET]) ? r[TARGET] : "Handlers";
    """#, #"""
        case "callback":
          if ((r[TARGET] === "SceneDelegate" || r[TARGET] === r[SCENE]) && sceneNames.has(r[SCENE])) return r[SCENE] + " SceneDelegate";
          return r[TARGET] === "AppDelegate" || r[TARGET] === "SceneDelegate" || controllerSet.has(r[TARGET]) ? r[TARGET] : "Handlers";
    """#),
  ])

  /// `text` with each piece replaced; each must occur exactly once.
  private static func replacing(_ text: String, _ pieces: [(String, String)]) -> String {
    pieces.reduce(text) { out, piece in
      precondition(out.ranges(of: piece.0).count == 1, "the timeline's script no longer has the piece the scene groups replace")
      return out.replacing(piece.0, with: piece.1)
    }
  }
}
