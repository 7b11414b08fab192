import Lifecycle
import Testing

/// The table of releases: what it holds, the text made from it, and its one refusal.
@Suite struct IOSReleaseTests {
  @Test func theTableAndWhatIsMadeFromIt() {
    #expect(IOSRelease.versions == [12, 13, 14, 15, 16, 17, 18, 26, 27])
    #expect(IOSRelease.text == "12 to 18, 26, or 27")
    #expect(IOSRelease.defaultVersion == 17 && IOSRelease.latest.version == 27)
    #expect(IOSRelease.headerVersions == 12...27)
    // An app that declares no SDK: the release's own, up to the App Store's (26 until April 2027).
    #expect((12...27).map(IOSRelease.defaultSDK(ios:)) == Array(12...26) + [26])
    #expect(IOSRelease.versions.filter(IOSRelease.hasScenes) == [13, 14, 15, 16, 17, 18, 26, 27])
    #expect(Profile().ios == 17 && Profile(ios: 27).sdk == 26 && !Profile(ios: 12).scenes && Profile(ios: 13).scenes)
  }

  @Test func oneRefusalNamesTheReleases() throws {
    #expect(try IOSRelease(26, "--ios").version == 26)
    #expect(throws: IOSRelease.Refusal("--ios", shown: "19")) { try IOSRelease(19, "--ios") }
    #expect(IOSRelease.Refusal("--ios", shown: "19").description == "--ios must be a released iOS version (12 to 18, 26, or 27), not 19")
    do {
      _ = try IOSRelease(28, "app: sdk", as: .sdk)
      Issue.record("28 is no release")
    } catch {
      #expect(error.description == "app: sdk must be a released iOS SDK (12 to 18, 26, or 27), not 28")
    }
  }
}
