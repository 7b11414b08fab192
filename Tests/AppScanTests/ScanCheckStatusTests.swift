import Render
import Testing
import AppScan

/// `scan --check`'s exit status: 2 only for the scan's trouble; a case not run is listed, not trouble.
@Suite struct ScanCheckStatusTests {
  @Test func aCaseNotRunIsNotTrouble() {
    let outcome = ScanCheck.Outcome(results: [], notRun: ["background refresh a [iOS 17, SDK 26]: not run, the run stopped"])
    #expect(ScanCheck.status(scan: Status.ok, outcome) == Status.ok)
    #expect(ScanCheck.status(scan: Status.failed, outcome) == Status.failed)
    #expect(ScanCheck.status(scan: Status.trouble, outcome) == Status.trouble)
    #expect(ScanCheck.status(scan: Status.ok, nil) == Status.ok)
    // Every case refused: nothing was checked.
    let none = ScanCheck.Outcome(results: [], notRun: ["cold launch [iOS 17, SDK 26]: not run, the run stopped"], refused: 1)
    #expect(ScanCheck.status(scan: Status.ok, none) == Status.trouble)
  }
}
