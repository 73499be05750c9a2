/// A store shared by several processes that can make work on one device run in one process at a
/// time (journal re-processing: two processes refining the same stretch would undo each other's
/// work). A store of one process does not conform: its process orders its own work.
public protocol ExclusiveDeviceWork: Sendable {
    /// Runs `body` once no other process runs work for `deviceID`, and keeps the others waiting
    /// until it returns.
    func exclusively<T: Sendable>(deviceID: DeviceID, _ body: @Sendable () async throws -> T) async throws -> T

    /// Inside `exclusively`: records `runner` (a process's own name) as the last to work on the
    /// device, and returns whether it was the last before too, so that what the process kept from
    /// its own previous work on the device still holds.
    func claimDeviceWork(userID: UserID, deviceID: DeviceID, runner: String) async throws -> Bool
}
