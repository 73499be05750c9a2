/// Why a store refused or failed a request.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A user with this name exists already.
    case userExists(name: String)
    /// The user name is empty or contains control characters.
    case invalidName(String)
    /// A device with this name exists already for the user.
    case deviceExists(name: String)
    case unknownUser(UserID)
    case unknownDevice(DeviceID)
    case unknownVisit(VisitID)
    case unknownPlace(PlaceID)
    /// No region with this id belongs to the user.
    case unknownRegion(RegionID)
    /// A region with this name exists already for the user.
    case regionExists(name: String)
    /// The database file could not be opened or has a schema this version does not know.
    case cannotOpen(path: String, reason: String)
    /// The database engine failed; `operation` says what was being done.
    case database(operation: String, message: String)
    /// The caller's import work threw; nothing it wrote was kept.
    case importAborted(underlying: String)
    /// The change would leave no enabled administrator (disabling, demoting or deleting the last one).
    case lastAdministrator(UserID)

    public var description: String {
        switch self {
        case .userExists(let name): "a user named '\(name)' exists already"
        case .invalidName(let name): "'\(name)' is not a valid name: it must be non-empty and printable"
        case .deviceExists(let name): "a device named '\(name)' exists already for this user"
        case .unknownUser(let id): "no user with id \(id)"
        case .unknownDevice(let id): "no device with id \(id)"
        case .unknownVisit(let id): "no visit with id \(id)"
        case .unknownPlace(let id): "no place with id \(id)"
        case .unknownRegion(let id): "no region with id \(id)"
        case .regionExists(let name): "a region named '\(name)' exists already for this user"
        case .cannotOpen(let path, let reason): "cannot open the database \(path): \(reason)"
        case .database(let operation, let message): "database error while \(operation): \(message)"
        case .importAborted(let underlying): "import aborted, nothing stored: \(underlying)"
        case .lastAdministrator(let id): "user \(id) is the last enabled administrator: make another user one first"
        }
    }
}
