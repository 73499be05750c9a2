import Hummingbird
import NIOCore
import TravelogStore

/// Who is asking: set by `AuthenticationMiddleware` from a session cookie, HTTP Basic auth or a
/// device token.
public struct Identity: Sendable, Equatable {
    public enum Method: Sendable, Equatable {
        /// The page's login cookie.
        case session
        /// HTTP Basic auth with the user's password.
        case password
        /// A device token (Bearer, `?token=`, or as the Basic password).
        case deviceToken
    }

    public var user: User
    /// The device whose token was presented.
    public var device: Device?
    public var method: Method
}

/// The per-request context of every route.
public struct TravelogRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: Identity?
    /// The session secret presented in the cookie (for logging out).
    var sessionSecret: String?
    /// The pattern of the route this request reaches (`/api/v1/visits/{id}`), set from the
    /// canonical path by `CanonicalPathMiddleware` before any check; nil for a 404 or 405.
    public var route: String?
    /// The client's IP address (the proxy's, behind a reverse proxy), for login throttling.
    public var clientAddress: String?
    /// The connection, to hear when its client goes away (`untilClientLeaves`).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress
        channel = source.channel
    }

    /// The largest body the small JSON routes (login, journal edits, settings) collect; the ingest
    /// routes and uploads read theirs as a stream with limits of their own (`SpooledBody`).
    public var maxUploadSize: Int { 1 << 20 }

    /// The caller, or a 401.
    func requireIdentity() throws(APIError) -> Identity {
        guard let identity else { throw .unauthorized("log in, or send HTTP Basic auth or a device token") }
        return identity
    }

    /// The caller when it is a person (the password or the page), or a 401/403: the journal,
    /// notifications and sessions are not for a device token.
    func requirePerson() throws(APIError) -> Identity {
        let identity = try requireIdentity()
        guard identity.method != .deviceToken else { throw .forbidden("a device token cannot edit the journal") }
        return identity
    }
}
