import Testing
@testable import Lifecycle

/// The labels the log gives instances, read back: the class before the first `#`, the number after the last.
@Suite struct InstanceLabelTests {
  @Test func theClassIsWhatComesBeforeTheFirstHash() {
    let cases: [(String, String)] = [
      ("NoteList#2", "NoteList"), ("Scene#1", "Scene"), ("SceneDelegate", "SceneDelegate"), ("", ""),
      ("#3", ""), ("Éditeur#12", "Éditeur"), ("A#B#4", "A"), ("AVeryLongControllerClassName#1234", "AVeryLongControllerClassName"),
    ]
    for (label, className) in cases {
      #expect(InstanceLabel.className(label) == className, "\(label)")
    }
  }

  @Test func theNumberIsWhatComesAfterTheLastHash() {
    #expect(InstanceLabel.number("NoteList#2") == 2)
    #expect(InstanceLabel.number("A#B#4") == 4)
    #expect(InstanceLabel.number("SceneDelegate") == nil)
    #expect(InstanceLabel.number("Scene#x") == nil)
  }
}
