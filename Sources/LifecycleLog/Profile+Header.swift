import EventStore
import Lifecycle

extension Profile {
  /// Why a header's profile could not have been written by lifesim (a knob missing, of the wrong
  /// type, or outside its range; an iOS version it has no profile for; `scenes` other than the
  /// profile's), or nil. Installed as `HeaderRules.check`, so that no reader hands on a header
  /// whose values would overflow.
  @Sendable public static func headerProblem(_ header: LogHeader) -> String? {
    let profile: Profile
    do throws(KnobError) { profile = try Profile(json: header.profile) } catch { return error.description }
    guard profile.scenes == header.scenes else { return "scenes is \(header.scenes) but the profile's is \(profile.scenes)" }
    return nil
  }
}
