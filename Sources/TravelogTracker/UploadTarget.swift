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
    /// the tracker would otherwise send nowhere). The URL's text is taken apart here, not by
    /// `URLComponents`, whose host getter runs ICU's IDNA mapping: that loaded 1.3 MB of ICU data
    /// into the tracker at its first upload (issue 14). Foundation's `URL` has already checked the
    /// syntax; an international name must be given in its ASCII (punycode) form.
    init?(_ url: URL) {
        let text = url.absoluteString
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = text[schemeEnd.upperBound...].prefix { $0 != "#" }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@") else { return nil }
        var host = authority[...], portText: Substring? = nil
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        usesTLS = scheme == "https"
        guard !host.isEmpty, let port = portText.map({ UInt16($0) }) ?? (usesTLS ? 443 : 80), port > 0 else { return nil }
        self.host = String(host)
        self.port = port
        let target = rest[authorityEnd...]
        requestTarget = target.hasPrefix("/") ? String(target) : "/" + target
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
