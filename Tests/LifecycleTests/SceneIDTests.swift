import Lifecycle
import Testing

/// `Scene#n`, made and read in one place.
@Suite struct SceneIDTests {
  @Test func theLabelRoundTripsAndNothingElseReads() {
    #expect(SceneID(number: 2).description == "Scene#2")
    #expect(SceneID(label: "Scene#2") == SceneID(number: 2))
    #expect(SceneState.label(number: 3) == "Scene#3" && SceneState.unconnectedLabel == "Scene#0")
    for other in ["List#2", "Scene", "Scene#", "Scene#-1", "Scene#2#3", "scene#2", "Scenes#2"] {
      #expect(SceneID(label: other) == nil, "\(other)")
    }
    #expect([SceneID(number: 10), SceneID(number: 2)].sorted().map(\.description) == ["Scene#2", "Scene#10"])
  }
}
