// The verb of continued processing tasks (iOS 26): the user's cancel from the Live Activity.

extension VerbSpec {
  static let cancelTask = VerbSpec(
    "cancel_task", [.string(key: "id", expected: "a continued task's identifier", domain: .continuedTasks)],
    doc: "iOS 26 or later: the user cancels the running continued task from its Live Activity (its expiration handler runs)",
    make: { a in a.text("id").map(Input.cancelTask) },
    refusal: { r throws(ScenarioError) in
      if let why = r.inPlace({ InputRules(profile: r.profile).continuedTaskRefusal(r.input, $0) }) { throw r.fail(why) }
    },
    sequence: { input, sim throws(ProcessEnded) in
      guard case let .cancelTask(identifier) = input else { return }
      try sim.cancelContinuedTask(identifier)
    })
}
