import JSON

// Background URL sessions: transfers the system runs outside the process, and the events
// that bring the app back for them (docs/model.md §16; S133, S134, F108, F112).

extension Simulator {
  /// `background_transfer{session=, seconds=}`: the transfer's id.
  func startTransfer(session: String, us: Int64, at: String?) -> Int {
    let id = state.backgroundWork.transfersStarted + 1
    emit(.appCalled(.backgroundTransfer(session: session, task: id, us: us), at: at))
    return id
  }

  /// `transfer_done(session)`: every transfer of `session` that has run its time is delivered.
  /// A running app gets the task callbacks directly; a suspended one is resumed, one not
  /// running is launched in the background (no scene), and either gets
  /// `handleEventsForBackgroundURLSession` with a completion, the task callbacks, then
  /// `urlSessionDidFinishEvents`.
  func finishTransfers(session: String) throws(ProcessEnded) {
    let done = state.backgroundWork.finishedTransfers(session, at: clock)
    guard !done.isEmpty else { return }
    guard state.process != .running else {
      for transfer in done where driver.hostWorkMayContinue() { try deliverTransferCompletion(transfer, errorCode: nil) }
      return
    }
    try wakeInBackground(repeatingDidEnterBackground: false)
    try deliver(.handleEventsForBackgroundURLSession, "AppDelegate", completion: state.completionsIssued + 1,
                payload: .object([("identifier", .string(session))]))
    for transfer in done where driver.hostWorkMayContinue() { try deliverTransferCompletion(transfer, errorCode: nil) }
    try deliver(.didFinishEvents, URLSessionLabel.delegate, payload: .object([("session", .string(session))]))
  }

  /// The transfers a force quit cancelled, to an app the user has opened again: each fails
  /// with NSURLErrorCancelled (−999, F108).
  func deliverCancelledTransfers() throws(ProcessEnded) {
    guard inPlace({ $0.isForeground }), state.backgroundWork.transfers.cancelledCount > 0 else { return }
    for transfer in state.backgroundWork.transfers where transfer.cancelled && driver.hostWorkMayContinue() {
      try deliverTransferCompletion(transfer, errorCode: URLSessionLabel.cancelledErrorCode)
    }
  }

  private func deliverTransferCompletion(_ transfer: BackgroundTransfer, errorCode: Int?) throws(ProcessEnded) {
    var payload: [(String, JSONValue)] = [("session", .string(transfer.session)), ("task", .int(Int64(transfer.id)))]
    if let errorCode { payload.append(("error", .object([("code", .int(Int64(errorCode)))]))) }
    try deliver(.didCompleteWithError, URLSessionLabel.delegate, payload: .object(payload))
  }
}

/// The names of background URL sessions in the log.
public enum URLSessionLabel {
  /// The target of the session delegate's callbacks (the app script's `URLSessionDelegate` table).
  public static let delegate = "URLSessionDelegate"
  /// NSURLErrorCancelled: what a transfer a force quit cancelled fails with.
  public static let cancelledErrorCode = -999
}
