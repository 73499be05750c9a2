import CTravelogHTTP
import Dispatch
import Foundation
import TravelogFormats

/// Sends batches to an Overland receiver: `POST` of `{"locations":[…]}` with
/// `Authorization: Bearer <token>`; delivered only when the answer is 2xx with
/// `{"result":"ok"}` (what Overland itself requires, PROTOCOLS.md), so a proxy's error page or a
/// redirect is never taken for an acknowledgement.
///
/// The request is Travelog's own HTTP/1.1 client (`CTravelogHTTP`): a socket for `http://`, and
/// OpenSSL's libssl, loaded at the first `https://` upload, for TLS with the certificate and the
/// host name verified. The tracker thereby maps no libcurl and none of the libraries libcurl
/// brings, which kept it under its memory budget while uploading (issue 14). Proxies
/// (`https_proxy`) are not used.
public struct OverlandUploader: Sendable {
    /// Why a batch was not acknowledged.
    public enum UploadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The URL is not `http://` or `https://` with a host.
        case unsupportedURL(String)
        /// No complete answer: resolution, connection, TLS (an untrusted certificate), timeout, or a malformed answer.
        case unreachable(String)
        case status(Int, body: String)
        case notAcknowledged(body: String)

        public var description: String {
            switch self {
            case .unsupportedURL(let url): "not an http:// or https:// URL with a host: \(url)"
            case .unreachable(let reason): "server unreachable: \(reason)"
            case .status(let code, let body): "HTTP \(code): \(body.prefix(200))"
            case .notAcknowledged(let body): "the answer was not {\"result\":\"ok\"}: \(body.prefix(200))"
            }
        }
    }

    public let endpoint: URL
    public let token: String
    public let timeoutSeconds: Double
    /// A PEM file of certificates to trust for `https://` instead of the system's (nil: the system's).
    public let trustedCertificatesPath: String?

    /// - Parameters:
    ///   - server: a Travelog server's base URL (the Overland route is appended) or, when it has
    ///     a path, the full URL of any Overland receiver.
    ///   - timeoutSeconds: for one whole request, from resolving the host to the end of the answer.
    ///   - trustedCertificatesPath: a PEM file of certificates to trust instead of the system's.
    public init(server: URL, token: String, timeoutSeconds: Double = 30, trustedCertificatesPath: String? = nil) {
        let path = server.path
        endpoint = (path.isEmpty || path == "/") ? server.appendingPathComponent("api/v1/overland") : server
        self.token = token
        self.timeoutSeconds = timeoutSeconds
        self.trustedCertificatesPath = trustedCertificatesPath
    }

    /// Posts one batch; returns when the receiver acknowledged it. The request runs on a thread
    /// of its own.
    /// - Throws: `UploadError`.
    public func upload(_ features: [String]) async throws(UploadError) {
        let (status, body) = try await post(OverlandFeature.body(features))
        guard (200..<300).contains(status) else { throw .status(status, body: String(decoding: body, as: UTF8.self)) }
        guard Self.isAcknowledgement(body) else { throw .notAcknowledged(body: String(decoding: body, as: UTF8.self)) }
    }

    /// Whether an answer's body is a JSON object whose `result` is `"ok"` (other members ignored).
    static func isAcknowledgement(_ body: [UInt8]) -> Bool {
        var parser = JSONParser(bytes: body)
        do {
            try parser.expect(.objectStart)
            var acknowledged = false
            while try parser.nextKey() {
                if parser.stringEquals("result") {
                    acknowledged = try parser.next() == .string && parser.stringEquals("ok")
                } else {
                    try parser.skipValue()
                }
            }
            return try parser.next() == nil && acknowledged
        } catch {
            return false
        }
    }

    /// One POST of a JSON body; redirects are answers, not followed.
    /// - Returns: the HTTP status and the answer's body.
    private func post(_ body: [UInt8]) async throws(UploadError) -> (Int, [UInt8]) {
        guard let target = UploadTarget(endpoint) else { throw .unsupportedURL(endpoint.absoluteString) }
        let headers = ["Content-Type: application/json", "Authorization: Bearer \(token)"]
        let timeoutMilliseconds = Int(timeoutSeconds * 1000)
        let trusted = trustedCertificatesPath
        let result: Result<(Int, [UInt8]), UploadError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: target.post(body, headers: headers, timeoutMilliseconds: timeoutMilliseconds,
                                                           trustedCertificatesPath: trusted))
            }
        }
        return try result.get()
    }
}
