import UIKit

class DraftUploader {
  private let application: UIApplication

  init(application: UIApplication) { self.application = application }

  func uploadOnLeaving(_ drafts: [Draft]) {
    let taskID = application.beginBackgroundTask(withName: "upload") { [application] in
      application.endBackgroundTask(taskID)
    }
    guard let session = UploadSession.current else { return }
    if drafts.isEmpty {
      return
    }
    session.send(drafts)
    application.endBackgroundTask(taskID)
  }

  func saveOnLeaving(_ store: DraftStore) {
    var taskID = UIBackgroundTaskIdentifier.invalid
    taskID = application.beginBackgroundTask(withName: "save") { [application] in
      application.endBackgroundTask(taskID)
    }
    store.save { result in
      guard case .success = result else { return }
      self.application.endBackgroundTask(taskID)
    }
  }

  func exportOnLeaving(_ store: DraftStore) throws {
    let taskID = application.beginBackgroundTask(withName: "export") { [application] in
      application.endBackgroundTask(taskID)
    }
    try store.export()
    application.endBackgroundTask(taskID)
  }
}
