/// What a header must hold beyond its form, as only the layers above EventStore know it (the
/// ranges of the profile's knobs). The program installs `check` once at start-up, before it reads
/// any log; every reader then refuses a header that lifesim would never have written, even when its
/// chain is intact (the chain has no secret: anyone can re-hash a crafted log).
public enum HeaderRules {
  /// Why a header's content is refused (`profile: knob … is …, outside its range …`), or nil.
  /// Unset: only the form is checked.
  nonisolated(unsafe) public static var check: (@Sendable (LogHeader) -> String?)?
}
