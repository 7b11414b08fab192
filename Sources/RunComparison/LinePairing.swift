/// Pairs the removed and added lines of a hunk that read the same, so a renderer can note what
/// differs between them: each removed line, in order, takes the first added line not yet taken
/// with the same key. Through an index of the added lines' keys, linear in the hunk (a search of
/// the added lines for each removed one was quadratic: a hunk of 27,000 events took 11 s).
package enum LinePairing {
  /// The pairs `(removed, added)`, in the order of `removed`; `key` reads a line by its index.
  package static func pairs<Key: Hashable>(removed: [Int], added: [Int], key: (Int) -> Key) -> [(removed: Int, added: Int)] {
    // For each key, the added lines with it in order, and how many of them are taken.
    var waiting: [Key: (lines: [Int], taken: Int)] = [:]
    for a in added { waiting[key(a), default: ([], 0)].lines.append(a) }
    var out: [(removed: Int, added: Int)] = []
    for r in removed {
      let k = key(r)
      guard let queue = waiting[k], queue.taken < queue.lines.count else { continue }
      out.append((r, queue.lines[queue.taken]))
      waiting[k]?.taken += 1
    }
    return out
  }
}
