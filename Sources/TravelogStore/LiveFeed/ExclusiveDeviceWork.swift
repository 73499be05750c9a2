/// A store shared by several processes that can make work on one device run in one process at a
/// time (journal re-processing: two processes refining the same stretch would undo each other's
/// work). A store of one process does not conform: its process orders its own work.
public protocol ExclusiveDeviceWork: Sendable {
    /// Runs `body` once no other process runs work for `deviceID`, and keeps the others waiting
    /// until it returns.
    func exclusively<T: Sendable>(deviceID: DeviceID, _ body: @Sendable () async throws -> T) async throws -> T
}
