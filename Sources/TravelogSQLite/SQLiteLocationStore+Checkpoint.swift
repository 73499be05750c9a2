import GRDB
import TravelogStore

extension SQLiteLocationStore: BackgroundCheckpointStore {
    /// A passive checkpoint on a connection of its own: it takes no write lock, so the writer goes
    /// on meanwhile; the frames a reader still needs, and a checkpoint under way elsewhere (busy),
    /// are left for the next one.
    public func checkpointBesideWriter() async {
        _ = try? await checkpointer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }
}
