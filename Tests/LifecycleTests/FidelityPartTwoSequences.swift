import Testing
@testable import Lifecycle

// What the second audit's tests (FidelityPartTwoTests.swift, FidelityPartTwoRotationTests.swift)
// share: the profiles they run in, and the sequences they pin in every one of them. A
// controller is written with its trailing dot ("NoteList#1.").

/// A platform profile the tests run in: the iOS version and whether the app uses scenes.
struct PlatformUnderTest: Sendable, CustomTestStringConvertible {
  var ios: Int
  var scenes: Bool
  var testDescription: String { "iOS \(ios) \(scenes ? "scenes" : "sceneless")" }

  /// Every range where the sequences differ: iOS 12 (no viewIsAppearing), 13 and 17
  /// (viewIsAppearing), 26 (updateProperties), scene and sceneless.
  static let all = [PlatformUnderTest(ios: 12, scenes: false), PlatformUnderTest(ios: 13, scenes: true), PlatformUnderTest(ios: 17, scenes: false),
                    PlatformUnderTest(ios: 17, scenes: true), PlatformUnderTest(ios: 26, scenes: false), PlatformUnderTest(ios: 26, scenes: true)]

  /// A harness in this profile whose launch from the home screen has been claimed (the launch
  /// is ColdLaunchTests' subject); the app's roots are its layout's, first instances.
  func launched(app: ScriptedApp = ScriptedApp(), knobs: (inout Profile) -> Void = { _ in },
                sourceLocation: SourceLocation = #_sourceLocation) throws -> Harness {
    let h = Harness(ios: ios, scenes: scenes, app: app, knobs: knobs, sourceLocation: sourceLocation)
    try h.launch(roots: app.layout.roots.map { $0 + "#1" }, sourceLocation: sourceLocation)
    return h
  }
}

/// The callback sequences of docs/model.md §8–§10, per iOS version.
enum Seen {
  /// One appearance of `vc` from viewWillAppear to its layout: viewIsAppearing (iOS ≥ 13),
  /// updateProperties (iOS ≥ 26), then layout.
  static func appearing(_ vc: String, ios: Int) -> [String] {
    var s = [vc + "viewWillAppear(_:)"]
    if ios >= 13 { s.append(vc + "viewIsAppearing(_:)") }
    if ios >= 26 { s.append(vc + "updateProperties()") }
    return s + [vc + "viewWillLayoutSubviews()", vc + "viewDidLayoutSubviews()"]
  }

  /// A new controller `b` pushed over `a` (§8).
  static func pushed(_ b: String, over a: String, ios: Int) -> [String] {
    [b + "init(coder:)", b + "loadView()", b + "viewDidLoad()", a + "viewWillDisappear(_:)"] + appearing(b, ios: ios)
      + [a + "viewDidDisappear(_:)", b + "viewDidAppear(_:)"]
  }

  /// A new controller `b` presented full screen over `a`: `a`'s did after `b`'s (§9).
  static func presentedFullScreen(_ b: String, over a: String, ios: Int) -> [String] {
    [b + "init(coder:)", b + "loadView()", b + "viewDidLoad()", a + "viewWillDisappear(_:)"] + appearing(b, ios: ios)
      + [b + "viewDidAppear(_:)", a + "viewDidDisappear(_:)"]
  }

  /// A tab switch from `a` to `b`, whose view loads the first time (§8).
  static func tabSelected(_ b: String, from a: String, firstTime: Bool, ios: Int) -> [String] {
    (firstTime ? [b + "loadView()", b + "viewDidLoad()"] : []) + appearing(b, ios: ios)
      + [a + "viewWillDisappear(_:)", a + "viewDidDisappear(_:)", b + "viewDidAppear(_:)"]
  }

  /// The rotation the visible controllers get (willTransition, size, traits, layout; §10).
  static func rotation(_ vcs: [String]) -> [String] {
    vcs.map { $0 + "willTransition(to:with:)" } + vcs.map { $0 + "viewWillTransition(to:with:)" }
      + vcs.map { $0 + "traitCollectionDidChange(_:)" }
      + vcs.flatMap { [$0 + "viewWillLayoutSubviews()", $0 + "viewDidLayoutSubviews()"] }
  }

  /// What a controller coming back after missing a rotation gets, from willTransition on, until
  /// its layout pass: new traits after viewWillAppear, then viewIsAppearing (iOS ≥ 13),
  /// updateProperties (iOS ≥ 26), layout (§10).
  static func returnsRotated(_ vc: String, ios: Int) -> [String] {
    var s = [vc + "willTransition(to:with:)", vc + "viewWillAppear(_:)", vc + "traitCollectionDidChange(_:)"]
    if ios >= 13 { s.append(vc + "viewIsAppearing(_:)") }
    if ios >= 26 { s.append(vc + "updateProperties()") }
    return s + [vc + "viewWillLayoutSubviews()", vc + "viewDidLayoutSubviews()"]
  }
}
