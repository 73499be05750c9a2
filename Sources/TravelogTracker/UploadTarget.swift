import CTravelogHTTP
import Foundation

/// An upload URL taken apart for `CTravelogHTTP`: TLS or not, host, port, and the request target
/// (path and query, percent-encoded as in the URL).
struct UploadTarget: Hashable, Sendable {
    var usesTLS: Bool
    /// A name or an IP address; an IPv6 address without its brackets.
    var host: String
    var port: UInt16
    var requestTarget: String
}

extension UploadTarget {
    /// Nil unless the URL is `http://` or `https://` with a host (and no user or password, which
    /// the tracker would otherwise send nowhere).
    init?(_ url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = components.percentEncodedHost, !host.isEmpty,
              components.user == nil, components.password == nil else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        usesTLS = scheme == "https"
        self.host = host
        guard let port = UInt16(exactly: components.port ?? (usesTLS ? 443 : 80)), port > 0 else { return nil }
        self.port = port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        requestTarget = components.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    /// POSTs body and waits for the whole answer (blocking the calling thread).
    /// - Returns: the status and body, or `.unreachable` with the client's reason.
    func post(_ body: [UInt8], headers: [String], timeoutMilliseconds: Int,
              trustedCertificatesPath: String?) -> Result<(Int, [UInt8]), OverlandUploader.UploadError> {
        var response = travelog_http_response()
        defer { travelog_http_response_free(&response) }
        let outcome = host.withCString { hostText in
            requestTarget.withCString { targetText in
                withOptionalCString(trustedCertificatesPath) { trustedText in
                    var endpoint = travelog_http_endpoint(use_tls: usesTLS ? 1 : 0, host: hostText, port: port,
                                                          target: targetText, trusted_file: trustedText)
                    return withCStringArray(headers) { headerPointers in
                        body.withUnsafeBytes { bytes in
                            travelog_http_post(&endpoint, headerPointers, headers.count, bytes.baseAddress, bytes.count,
                                               timeoutMilliseconds, &response)
                        }
                    }
                }
            }
        }
        guard outcome == TRAVELOG_HTTP_OK else {
            let message = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            return .failure(.unreachable(message))
        }
        let answer = response.body.map { Array(UnsafeRawBufferPointer(start: $0, count: response.body_length)) } ?? []
        return .success((Int(response.status), answer))
    }
}

/// Calls `body` with the string as a C string, or with nil.
private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// Calls `body` with the strings as a C array of C strings, valid only during the call.
private func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}
