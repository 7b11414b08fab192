import Testing
import Lifecycle
@testable import Explore

/// `CallbackCoverage`: the callbacks a run and a lane delivered, by class, named only at the end.
@Suite struct CallbackCoverageTests {
  @Test("each class keeps its own callbacks; a union adds the other's classes and bits; repeats count once")
  func unionAndNames() {
    var run = CallbackCoverage()
    run.insert(className: "NoteList", callback: .viewDidLoad)
    run.insert(className: "AppDelegate", callback: .didFinishLaunchingWithOptions)
    run.insert(className: "NoteList", callback: .viewDidLoad)
    run.insert(className: "NoteList", callback: .viewWillAppear)
    var lane = CallbackCoverage()
    lane.insert(className: "AppDelegate", callback: .applicationDidBecomeActive)
    lane.formUnion(run)
    #expect(run.names == ["NoteList.viewDidLoad()", "NoteList.viewWillAppear(_:)", "AppDelegate.application(_:didFinishLaunchingWithOptions:)"])
    #expect(lane.names == ["AppDelegate.application(_:didFinishLaunchingWithOptions:)", "AppDelegate.applicationDidBecomeActive(_:)",
                           "NoteList.viewDidLoad()", "NoteList.viewWillAppear(_:)"])
    #expect(Callback.allCases.count <= UInt128.bitWidth)
  }
}
