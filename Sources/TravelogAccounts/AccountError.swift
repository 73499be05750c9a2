import TravelogStore

/// Why an account operation was refused.
public enum AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    case store(StoreError)
    case passwordTooShort(minimumCharacters: Int)
    case unknownUser(name: String)
    case unknownDevice(name: String)
    /// Too many wrong passwords for this name or from this address: try again after the delay.
    case throttled(retryAfterSeconds: Int)
    /// Too many password checks are waiting for the password hashing thread: try again after the delay.
    case busy(retryAfterSeconds: Int)

    public var description: String {
        switch self {
        case .store(let error): error.description
        case .passwordTooShort(let minimum): "the password is too short: use at least \(minimum) characters"
        case .unknownUser(let name): "no user named '\(name)'"
        case .unknownDevice(let name): "no device named '\(name)'"
        case .throttled(let seconds): "too many wrong passwords: try again in \(seconds) s"
        case .busy(let seconds): "too many password checks waiting: try again in \(seconds) s"
        }
    }
}
