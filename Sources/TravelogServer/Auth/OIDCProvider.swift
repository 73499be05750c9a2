import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// An OpenID Connect provider as discovered at start: its endpoints, its signing keys (fetched
/// again when a token names a key not in the cached set, at most once a minute), and the logins
/// under way. `discover(_:)` fails with a clear error when the provider cannot be reached.
public final class OIDCProvider: Sendable {
    /// The fields of the discovery document (OpenID Connect Discovery 1.0 §3) that are used.
    struct Metadata: Decodable, Sendable, Equatable {
        var issuer: String
        var authorization_endpoint: String
        var token_endpoint: String
        var jwks_uri: String
        var token_endpoint_auth_methods_supported: [String]?
        var code_challenge_methods_supported: [String]?
    }

    public let settings: OIDCSettings
    let metadata: Metadata
    let verifier: OIDCTokenVerifier
    private let keys: Mutex<(set: OIDCJSONWebKeySet, fetchedAt: Date)>
    let pending = Mutex(OIDCPendingLogins())
    static let timeoutSeconds: Double = 10
    static let keyRefetchSeconds: Double = 60

    init(settings: OIDCSettings, metadata: Metadata, keys: OIDCJSONWebKeySet, now: Date = Date()) {
        self.settings = settings
        self.metadata = metadata
        self.keys = Mutex((keys, now))
        verifier = OIDCTokenVerifier(issuer: metadata.issuer, clientID: settings.clientID)
    }

    /// Fetches the discovery document and the key set.
    public static func discover(_ settings: OIDCSettings) async throws(OIDCError) -> OIDCProvider {
        let base = settings.issuer.hasSuffix("/") ? String(settings.issuer.dropLast()) : settings.issuer
        let discoveryURL = base + "/.well-known/openid-configuration"
        let metadata: Metadata = try await fetchJSON(discoveryURL)
        // Discovery §4.3: the document's issuer is exactly the one asked for.
        guard metadata.issuer == settings.issuer || metadata.issuer == base else {
            throw .badDiscovery("it names the issuer \(metadata.issuer), not \(settings.issuer)")
        }
        if let methods = metadata.code_challenge_methods_supported, !methods.contains("S256") {
            throw .badDiscovery("the provider does not offer PKCE with S256")
        }
        let keys: OIDCJSONWebKeySet = try await fetchJSON(metadata.jwks_uri)
        return OIDCProvider(settings: settings, metadata: metadata, keys: keys)
    }

    /// The ID token's claims, checked; the key set is fetched again once when the token names an unknown key.
    func verify(idToken: String, nonce: String, now: Date = Date()) async throws(OIDCError) -> OIDCIDTokenClaims {
        let (current, fetchedAt) = keys.withLock { $0 }
        do {
            return try verifier.verify(idToken, keys: current, nonce: nonce, now: now)
        } catch .unknownKey(let kid) {
            guard now.timeIntervalSince(fetchedAt) >= Self.keyRefetchSeconds else { throw .unknownKey(kid: kid) }
            let fresh: OIDCJSONWebKeySet = try await Self.fetchJSON(metadata.jwks_uri)
            keys.withLock { $0 = (fresh, now) }
            return try verifier.verify(idToken, keys: fresh, nonce: nonce, now: now)
        }
    }

    /// The tokens' answer (RFC 6749 §5.1); only the ID token is used.
    private struct TokenAnswer: Decodable {
        var id_token: String?
    }

    /// Trades the authorization code for the ID token at the token endpoint, with the PKCE verifier
    /// and the client secret (HTTP Basic, or in the form when the provider offers only that).
    func exchange(code: String, codeVerifier: String, redirectURI: String) async throws(OIDCError) -> String {
        guard let url = URL(string: metadata.token_endpoint) else { throw .badDiscovery("token_endpoint is not a URL") }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                      ("code_verifier", codeVerifier), ("client_id", settings.clientID)]
        var request = URLRequest(url: url, timeoutInterval: Self.timeoutSeconds)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let methods = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"]
        if methods.contains("client_secret_basic") || !methods.contains("client_secret_post") {
            // RFC 6749 §2.3.1: each part form-encoded before the Basic encoding.
            let pair = "\(Self.formEncode(settings.clientID)):\(Self.formEncode(settings.clientSecret))"
            request.setValue("Basic " + Data(pair.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        } else {
            fields.append(("client_secret", settings.clientSecret))
        }
        request.httpBody = Data(fields.map { "\($0.0)=\(Self.formEncode($0.1))" }.joined(separator: "&").utf8)
        let (data, status) = try await Self.send(request, url: metadata.token_endpoint)
        guard status == 200 else {
            let reason = (try? JSONDecoder().decode([String: String].self, from: data))?["error"] ?? "status \(status)"
            throw .tokenExchangeFailed(reason)
        }
        guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: data), let idToken = answer.id_token else {
            throw .tokenExchangeFailed("the answer holds no id_token")
        }
        return idToken
    }

    /// `application/x-www-form-urlencoded` for one value.
    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    static func fetchJSON<T: Decodable>(_ address: String) async throws(OIDCError) -> T {
        guard let url = URL(string: address), url.scheme == "https" || url.scheme == "http" else {
            throw .providerUnreachable(url: address, reason: "not an http(s) URL")
        }
        var request = URLRequest(url: url, timeoutInterval: timeoutSeconds)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, status) = try await send(request, url: address)
        guard status == 200 else { throw .providerUnreachable(url: address, reason: "status \(status)") }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .providerUnreachable(url: address, reason: "unexpected JSON (\(error))")
        }
    }

    private static func send(_ request: URLRequest, url: String) async throws(OIDCError) -> (Data, Int) {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch {
            throw .providerUnreachable(url: url, reason: error.localizedDescription)
        }
    }

    /// 32 random bytes, base64url: a state, a nonce or a PKCE verifier (RFC 7636 §4.1: 43 characters).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// PKCE's S256 challenge: base64url(SHA-256(verifier)).
    static func codeChallenge(_ verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }
}
