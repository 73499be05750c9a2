/// A store whose write-ahead log can be copied into its database beside the writer (SQLite in WAL
/// mode). A long run of deletions (retention) calls it after each batch, so the log stays short and
/// the checkpoint SQLite runs after a commit once the log has grown, which a phone's insert may have
/// to wait for, finds nothing left to copy: with it, the OwnTracks posts' p99 while 1M fixes were
/// deleted fell from 21 to 16 ms (`make bench NAMES=retention`).
public protocol BackgroundCheckpointStore: Sendable {
    /// Copies what it can of the log into the database, without waiting for or blocking the writer.
    func checkpointBesideWriter() async
}
