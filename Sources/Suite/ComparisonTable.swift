import Render

/// The suite report's `--compare` section: one row per pair of runs that differ, every text
/// through `HTMLText`.
package struct ComparisonTable {
  package let changes: [ComparisonChange]

  package init(changes: [ComparisonChange]) { self.changes = changes }

  package var html: String {
    var rows = ""
    for change in changes {
      let cells = [
        change.name, change.pairText, change.divergenceText,
        ComparisonChange.countsText(change.appeared), ComparisonChange.countsText(change.disappeared),
        change.outcomeText ?? "", ComparisonChange.countsText(change.diagnostics),
      ]
      rows += "<tr>" + cells.map { "<td>\(HTMLText.escaped($0))</td>" }.joined() + "</tr>\n"
    }
    return """
      <table id="comparison"><thead><tr><th>Scenario</th><th>From → to</th><th>First divergence</th><th>Appeared</th>\
      <th>Disappeared</th><th>Outcome</th><th>New diagnostics</th></tr></thead><tbody>
      \(rows)</tbody></table>

      """
  }
}
