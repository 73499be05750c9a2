import Foundation

/// How `travelog serve --oidc-issuer …` logs people in with an OpenID Connect provider.
public struct OIDCSettings: Sendable, Equatable {
    /// Which ID token claim names the Travelog user.
    public enum UserClaim: String, Sendable, CaseIterable {
        case preferredUsername = "preferred_username"
        case email
        case sub
    }

    /// The issuer identifier; its discovery document is `<issuer>/.well-known/openid-configuration`.
    public var issuer: String
    public var clientID: String
    public var clientSecret: String
    public var userClaim: UserClaim
    /// Make a Travelog user at the first login of someone the provider knows and Travelog does not.
    public var createUsers: Bool
    /// Shown on the login button ("Log in with …"); the issuer's host when not given.
    public var providerName: String
    /// The callback address registered with the provider; `nil`: made from the request's `Host`.
    public var redirectURL: String?

    public init(issuer: String, clientID: String, clientSecret: String, userClaim: UserClaim = .preferredUsername,
                createUsers: Bool = false, providerName: String? = nil, redirectURL: String? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.userClaim = userClaim
        self.createUsers = createUsers
        self.providerName = providerName ?? URL(string: issuer)?.host ?? issuer
        self.redirectURL = redirectURL
    }
}
