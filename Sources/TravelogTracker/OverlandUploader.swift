import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    /// Posts one batch; returns when the receiver acknowledged it.
    /// - Throws: `UploadError`.
    public func upload(_ features: [String]) async throws(UploadError) {
        var request = URLRequest(url: endpoint, timeoutInterval: timeoutSeconds)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.httpBody = OverlandFeature.body(features)
        let data: Data, response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(for: request)
        } catch {
            throw .unreachable(error.localizedDescription)
        }
        let body = String(decoding: data, as: UTF8.self)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw .status((response as? HTTPURLResponse)?.statusCode ?? 0, body: body)
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["result"] as? String == "ok" else {
            throw .notAcknowledged(body: body)
        }
    }
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
