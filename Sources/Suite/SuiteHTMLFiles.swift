import EventStore
import Render
import LifecycleLog

/// `lifesim test --html DIR`: writes the report's pages (see `SuiteHTMLReport`). Every file goes
/// through a `FileSink`: it appears whole or not at all, and replaces the last report.
extension SuiteHTMLReport {
  /// `inputs`: the suite's scripts, which no page may replace.
  package static func write(_ results: [CaseResult], summary: SuiteSummary, wallUs: Int64?, to folder: String,
                            inputs: [String], changes: [ComparisonChange] = []) throws(SuiteError) {
    do {
      var timelines: [Int: String] = [:]
      for r in results where r.status == .failed || r.status == .error {
        guard let log = r.logPath else { continue }
        let file = "case-\(r.index + 1).html"
        let sink = try FileSink(path: folder + "/" + file, overwrite: true, inputs: [log] + inputs)
        do { TimelineExport.write(try RunTable(reading: try RecordedLog.reader(log)), log: log, to: sink) } catch {
          sink.discard()
          throw SuiteError("\(log): \(error)")
        }
        try sink.commit()
        timelines[r.index] = file
      }
      let sink = try FileSink(path: folder + "/index.html", overwrite: true, inputs: inputs)
      sink.write(page(results, summary: summary, wallUs: wallUs, timelines: timelines,
                      changes: changes.isEmpty ? "" : ComparisonTable(changes: changes).html))
      try sink.commit()
    } catch let error as SuiteError {
      throw error
    } catch {
      throw SuiteError("\(error)")
    }
  }
}
