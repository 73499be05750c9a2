import TravelogImport
import TravelogStore

extension DeviceTarget {
    /// The device a request writes to: the one whose token it presented, or, for a user who logged
    /// in with a password or the page's session, the named device (created when something is
    /// stored to it for the first time).
    static func of(_ identity: Identity, named name: String?, app: DeviceApp?) -> DeviceTarget {
        if let device = identity.device { return .device(device) }
        let name = name.flatMap { $0.isEmpty ? nil : $0 } ?? app?.rawValue ?? "api"
        return .named(name, userID: identity.user.id, app: app)
    }

    /// The device's name, known or to be.
    var name: String {
        switch self {
        case .device(let device): device.name
        case .named(let name, _, _): name
        }
    }
}
