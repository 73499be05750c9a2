import ArgumentParser
import Foundation
import TravelogServer

/// `travelog serve`'s single sign-on options (OpenID Connect).
struct OIDCOptions: ParsableArguments {
    @Option(name: .customLong("oidc-issuer"), help: ArgumentHelp(
        "Offer single sign-on with this OpenID Connect provider (its issuer URL; discovery is fetched at start).", valueName: "url"))
    var issuer: String?

    @Option(name: .customLong("oidc-client-id"), help: ArgumentHelp("The client id registered with the provider.", valueName: "id"))
    var clientID: String?

    @Option(name: .customLong("oidc-client-secret-file"), help: ArgumentHelp(
        "A file holding the client secret (or set TRAVELOG_OIDC_CLIENT_SECRET).", valueName: "file"))
    var clientSecretFile: String?

    @Option(name: .customLong("oidc-client-secret"), help: ArgumentHelp(
        "The client secret itself (visible to other local users in the process list: prefer the file).", valueName: "secret"))
    var clientSecret: String?

    @Option(name: .customLong("oidc-user-claim"), help: ArgumentHelp(
        "The ID token claim that names the Travelog user: preferred_username, email (verified only) or sub.", valueName: "claim"))
    var userClaim = OIDCSettings.UserClaim.preferredUsername.rawValue

    @Flag(name: .customLong("oidc-create-users"), help: "Make a Travelog user at the first login of someone the provider knows.")
    var createUsers = false

    @Option(name: .customLong("oidc-provider-name"), help: ArgumentHelp(
        "The name on the page's login button (default: the issuer's host).", valueName: "name"))
    var providerName: String?

    @Option(name: .customLong("oidc-redirect-url"), help: ArgumentHelp(
        "The callback URL registered with the provider (default: from the request's Host, /api/v1/oidc/callback).", valueName: "url"))
    var redirectURL: String?

    func validate() throws {
        guard let issuer else {
            guard clientID == nil, clientSecret == nil, clientSecretFile == nil, !createUsers, providerName == nil, redirectURL == nil else {
                throw ValidationError("the --oidc-* options need --oidc-issuer URL")
            }
            return
        }
        guard let url = URL(string: issuer), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("--oidc-issuer '\(issuer)': expected an http(s) URL")
        }
        guard clientID?.isEmpty == false else { throw ValidationError("--oidc-issuer needs --oidc-client-id ID") }
        guard OIDCSettings.UserClaim(rawValue: userClaim) != nil else {
            throw ValidationError("--oidc-user-claim \(userClaim): expected preferred_username, email or sub")
        }
        guard clientSecret == nil || clientSecretFile == nil else {
            throw ValidationError("--oidc-client-secret and --oidc-client-secret-file: give one")
        }
        if let redirectURL, URL(string: redirectURL)?.host == nil {
            throw ValidationError("--oidc-redirect-url '\(redirectURL)': expected an http(s) URL")
        }
    }

    /// The settings, the secret read from its file or the environment; `nil` without `--oidc-issuer`.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> OIDCSettings? {
        guard let issuer, let clientID, let claim = OIDCSettings.UserClaim(rawValue: userClaim) else { return nil }
        var secret = clientSecret ?? environment["TRAVELOG_OIDC_CLIENT_SECRET"]
        if let clientSecretFile {
            do {
                secret = try String(contentsOfFile: clientSecretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw ValidationError("--oidc-client-secret-file \(clientSecretFile): cannot be read (\(error.localizedDescription))")
            }
        }
        guard let secret, !secret.isEmpty else {
            throw ValidationError("--oidc-issuer needs the client secret: --oidc-client-secret-file FILE, "
                                  + "TRAVELOG_OIDC_CLIENT_SECRET, or --oidc-client-secret")
        }
        return OIDCSettings(issuer: issuer, clientID: clientID, clientSecret: secret, userClaim: claim,
                            createUsers: createUsers, providerName: providerName, redirectURL: redirectURL)
    }
}

/// Single sign-on could not be set up at start.
struct OIDCStartError: Error, CustomStringConvertible {
    var underlying: OIDCError
    var description: String { "single sign-on: \(underlying.description)" }
}
