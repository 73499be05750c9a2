import Foundation
import TravelogStore

/// The device a write goes to: one known already, or one a request names, created when it is new
/// and only once something is to be stored (a refused body never leaves a device behind).
public enum DeviceTarget: Sendable {
    case device(Device)
    case named(String, userID: UserID, app: DeviceApp?)

    /// The user the write belongs to.
    public var userID: UserID {
        switch self {
        case .device(let device): device.userID
        case .named(_, let userID, _): userID
        }
    }

    /// The device when it is known without asking the store.
    public var knownDevice: Device? {
        if case .device(let device) = self { return device }
        return nil
    }

    /// The device, looked up or created (a concurrent request creating the same one is fine).
    public func resolve(in store: any AccountStore) async throws(StoreError) -> Device {
        switch self {
        case .device(let device):
            return device
        case .named(let name, let userID, let app):
            if let existing = try await store.device(named: name, userID: userID) { return existing }
            do throws(StoreError) {
                let device = try await store.addDevice(named: name, userID: userID)
                if let app { try await store.setApp(app, deviceID: device.id) }
                return try await store.device(id: device.id) ?? device
            } catch .deviceExists {
                if let existing = try await store.device(named: name, userID: userID) { return existing }
                throw .deviceExists(name: name)
            }
        }
    }
}
