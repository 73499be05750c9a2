import CTravelogHTTP
import Dispatch
import Foundation

/// Sends batches to an Overland receiver: `POST` of `{"locations":[…]}` with
/// `Authorization: Bearer <token>`; delivered only when the answer is 2xx with
/// `{"result":"ok"}` (what Overland itself requires, PROTOCOLS.md), so a proxy's error page or a
/// redirect is never taken for an acknowledgement.
public struct OverlandUploader: Sendable {
    /// Why a batch was not acknowledged.
    public enum UploadError: Error, Hashable, Sendable, CustomStringConvertible {
        case unreachable(String)
        case status(Int, body: String)
        case notAcknowledged(body: String)

        public var description: String {
            switch self {
            case .unreachable(let reason): "server unreachable: \(reason)"
            case .status(let code, let body): "HTTP \(code): \(body.prefix(200))"
            case .notAcknowledged(let body): "the answer was not {\"result\":\"ok\"}: \(body.prefix(200))"
            }
        }
    }

    public let endpoint: URL
    public let token: String
    public let timeoutSeconds: Double

    /// - Parameter server: a Travelog server's base URL (the Overland route is appended) or, when
    ///   it has a path, the full URL of any Overland receiver.
    public init(server: URL, token: String, timeoutSeconds: Double = 30) {
        let path = server.path
        endpoint = (path.isEmpty || path == "/") ? server.appendingPathComponent("api/v1/overland") : server
        self.token = token
        self.timeoutSeconds = timeoutSeconds
    }

    /// Posts one batch; returns when the receiver acknowledged it. The request goes through
    /// libcurl, loaded at the first upload (`CTravelogHTTP`), on a thread of its own.
    /// - Throws: `UploadError`.
    public func upload(_ features: [String]) async throws(UploadError) {
        let (status, data) = try await post(OverlandFeature.body(features))
        let body = String(decoding: data, as: UTF8.self)
        guard (200..<300).contains(status) else { throw .status(status, body: body) }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["result"] as? String == "ok" else {
            throw .notAcknowledged(body: body)
        }
    }

    /// One POST of a JSON body; redirects are answers, not followed.
    /// - Returns: the HTTP status and the answer's body.
    private func post(_ body: Data) async throws(UploadError) -> (Int, Data) {
        let url = endpoint.absoluteString
        let headers = ["Content-Type: application/json", "Authorization: Bearer \(token)"]
        let timeoutMilliseconds = Int(timeoutSeconds * 1000)
        let result: Result<(Int, Data), UploadError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var response = travelog_http_response()
                defer { travelog_http_response_free(&response) }
                let outcome = withCStringArray(headers) { headerPointers in
                    body.withUnsafeBytes { bytes in
                        travelog_http_post(url, headerPointers, headers.count, bytes.baseAddress, bytes.count, timeoutMilliseconds, &response)
                    }
                }
                guard outcome == TRAVELOG_HTTP_OK else {
                    let message = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                    continuation.resume(returning: .failure(.unreachable(message)))
                    return
                }
                let data = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
                continuation.resume(returning: .success((response.status, data)))
            }
        }
        return try result.get()
    }
}

/// Calls `body` with the strings as a C array of C strings, valid only during the call.
private func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { UnsafePointer(strdup($0)) }
    defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
    return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// The wait before the next upload after failures: 5 s doubling to 5 minutes, so a server that
/// is down for days costs one request every five minutes.
public struct UploadBackoff: Hashable, Sendable {
    public static let initialSeconds: Double = 5
    public static let maximumSeconds: Double = 300
    public private(set) var failures = 0

    public init() {}

    /// The wait after one more failure, in seconds.
    public mutating func failed() -> Double {
        failures += 1
        return min(Self.maximumSeconds, Self.initialSeconds * pow(2, Double(failures - 1)))
    }

    public mutating func succeeded() { failures = 0 }
}
