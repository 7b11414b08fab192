/// Work on each part of a log's chunk once its lines check out, done by the task that checked
/// them, on the part's bytes while they are still in that core's cache, and while the caller
/// is still busy with the chunks before (`replay --state` decodes the events there, and only
/// folds them on its own thread). A stream opened with followers
/// (`LogEventStream(path:following:)`) makes one for each part it reads into; a batch it hands
/// out then names the followers of its parts (`LogEventBatch.followers`).
///
/// `follow` is called on a worker thread, never on two at once for one follower, and its work
/// is seen by the caller once the batch that holds the part is handed out. Work on a chunk
/// that fails a check is done for nothing: the stream gives up on that chunk, and its reader
/// reads the events again (without followers).
public protocol FoldPartFollower: AnyObject {
  /// Works on `events`, one part's, valid until the stream moves past their batch.
  func follow(_ events: LogEventBatch)
}
