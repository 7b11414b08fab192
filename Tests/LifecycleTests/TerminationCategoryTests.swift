import EventStore
import JSON
import Testing
@testable import Lifecycle

// MetricKit 27's termination categories and the foreground/background split (docs/model.md
// §6), derived from what a log records, so a log written before them reads the same way.

@Suite struct TerminationCategoryTests {
  @Test("every recorded reason has its MetricKit 27 category")
  func everyReasonHasItsCategory() {
    let cases: [(Termination, TerminationCategory)] = [
      (Termination(reason: .watchdog, code: "0x8badf00d", description: "scene-update watchdog transgression"), .watchdog),
      (Termination(reason: .suspendedWithLockedFile, code: "0xdead10cc", description: "held a lock"), .fileLock),
      (Termination(reason: .backgroundTaskExpired, code: "0x2182bad2", description: "not completed"), .taskTimeout),
      (Termination(reason: .jetsam, code: nil, description: "per-process-limit: the app's memory went over 64 MiB"), .memoryLimit),
      (Termination(reason: .jetsam, code: nil, description: "vm-pageshortage: the system reclaimed the suspended app's memory"), .systemPressure),
      (.crash("app.lua:3: boom"), .illegalInstruction),
      (.crash("NSInternalInconsistencyException: No launch handler registered for task with identifier x"), .abnormal),
      (.crash("app.lua:3: NSInvalidArgumentException: unrecognized selector"), .abnormal),
      (.crash("[string \"app\"]:12: NSRangeException: index 3 beyond bounds"), .abnormal),
      (.crash("NSException: raised"), .abnormal),
      (.crash("app.lua:3: not an NSRangeException: here"), .illegalInstruction),
      (.crash("NSRange Exception: a space"), .illegalInstruction),
      (.crash("NSInternalInconsistencyException"), .illegalInstruction),
      (.crash("app.lua:x: NSRangeException: no line"), .illegalInstruction),
      (Termination(reason: .crash, code: "EXC_BAD_ACCESS", description: "NSInvalidArgumentException: both"), .badAccess),
      (Termination(reason: .crash, code: "EXC_BREAKPOINT", description: "UIScene life cycle is required"), .illegalInstruction),
      (Termination(reason: .crash, code: "EXC_BAD_ACCESS", description: "KERN_INVALID_ADDRESS"), .badAccess),
      (Termination(reason: .user, code: nil, description: "force quit from the app switcher"), .normal),
      (Termination(reason: .reboot, code: nil, description: "the device restarted"), .normal),
    ]
    for (termination, category) in cases { #expect(TerminationCategory(termination) == category, "\(termination)") }
  }

  @Test("a user's launch is in the foreground from its start; home, suspension, prewarm and background launches are not")
  func foregroundFollowsTheEvents() {
    func after(_ bodies: [EventBody]) -> Bool {
      var tracker = ForegroundTracker()
      bodies.forEach { tracker.follow($0) }
      return tracker.foreground
    }
    #expect(after([.processStarted(mode: .foreground, state: .background)]))
    #expect(!after([.processStarted(mode: .background, state: .background)]))
    #expect(!after([.processStarted(mode: .prewarm, state: .background)]))
    #expect(!after([.processStarted(mode: .foreground, state: .inactive), .applicationStateChanged(from: .active, to: .background)]))
    #expect(after([.processStarted(mode: .background, state: .background),
                   .sceneActivationChanged(scene: "Scene#1", from: .background, to: .foregroundInactive)]))
    #expect(!after([.processStarted(mode: .foreground, state: .inactive), .suspended]))
    #expect(after([.processStarted(mode: .prewarm, state: .background), .launchContinued(state: .inactive)]))
    #expect(!after([.processStarted(mode: .foreground, state: .inactive), .terminated(.crash("x"))]))
  }

  @Test("the fold records where each termination happened, and the outcome gains category and foreground; a reason lifesim does not write gets null")
  func theOutcomeIsAnnotatedFromTheFold() {
    var s = LifecycleState()
    s.evolve(Event(t: 0, .processStarted(mode: .foreground, state: .inactive)))
    s.evolve(Event(t: 1, .crashed(name: "viewDidLoad", target: "A#1", message: "boom", traceback: "")))
    s.evolve(Event(t: 2, .processStarted(mode: .background, state: .background)))
    s.evolve(Event(t: 3, .terminated(Termination(reason: .jetsam, code: nil, description: "vm-pageshortage: x"))))
    #expect(s.terminationsInForeground == [true, false])
    let annotated = s.annotated(outcome: Simulator.outcome(of: s))
    #expect(annotated["terminations"]?.canonicalText == #"[{"reason":"crash","description":"boom","category":"illegalInstruction","foreground":true},{"reason":"jetsam","description":"vm-pageshortage: x","category":"systemPressure","foreground":false}]"#)
    // The trailer keeps the outcome as recorded.
    #expect(Simulator.outcome(of: s)["terminations"]?.arrayValue?.first?["category"] == nil)
    let hostile = JSONValue.object([("terminations", .array([.object([("reason", .string("<b>"))]), .string("x")]))])
    #expect(LifecycleState().annotated(outcome: hostile).canonicalText == #"{"terminations":[{"reason":"<b>","category":null,"foreground":null},"x"]}"#)
  }
}
