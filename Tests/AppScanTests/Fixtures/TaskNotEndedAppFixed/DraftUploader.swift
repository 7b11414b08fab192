import UIKit

class DraftUploader {
  private let application: UIApplication

  init(application: UIApplication) { self.application = application }

  func uploadOnLeaving(_ drafts: [Draft]) {
    let taskID = application.beginBackgroundTask(withName: "upload") { [application] in
      application.endBackgroundTask(taskID)
    }
    defer { application.endBackgroundTask(taskID) }
    guard let session = UploadSession.current else { return }
    if drafts.isEmpty {
      return
    }
    session.send(drafts)
  }

  func saveOnLeaving(_ store: DraftStore) {
    var taskID = UIBackgroundTaskIdentifier.invalid
    taskID = application.beginBackgroundTask(withName: "save") { [application] in
      application.endBackgroundTask(taskID)
    }
    store.save { result in
      if case .failure = result { Log.failed() }
      self.application.endBackgroundTask(taskID)
    }
  }

  func exportOnLeaving(_ store: DraftStore) throws {
    let taskID = application.beginBackgroundTask(withName: "export") { [application] in
      application.endBackgroundTask(taskID)
    }
    do {
      try store.export()
    } catch {
      application.endBackgroundTask(taskID)
      throw error
    }
    application.endBackgroundTask(taskID)
  }
}
