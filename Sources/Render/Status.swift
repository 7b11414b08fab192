/// Every command's exit status: 0 all well; 1 a check failed (an expectation, a divergence, a damaged log, runs that differ); 2 trouble (usage, a script error, an unreadable log).
package enum Status {
  package static let ok: Int32 = 0
  package static let failed: Int32 = 1
  package static let trouble: Int32 = 2
}
