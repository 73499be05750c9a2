import Foundation
import Hummingbird
import Logging

/// Logs each request (method and path) at a level, with the value of every secret-bearing query
/// parameter (`token`, `password`, `key`, `secret`) replaced by `REDACTED`. Hummingbird's
/// `LogRequestsMiddleware` logs the URI as sent, which put device tokens in debug logs.
struct RedactedRequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var secretParameters: Set<String> { ["token", "password", "key", "secret", "pass"] }

    let level: Logger.Level

    init(_ level: Logger.Level) {
        self.level = level
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.log(level: level, "request", metadata: [
            "hb.request.method": .string(request.method.rawValue),
            "hb.request.path": .string(Self.redacted(path: request.uri.path, query: request.uri.query)),
        ])
        return try await next(request, context)
    }

    /// The path and query with secret parameters' values replaced.
    static func redacted(path: String, query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return secretParameters.contains((name.removingPercentEncoding ?? name).lowercased()) ? "\(name)=REDACTED" : String(pair)
        }
        return path + "?" + parts.joined(separator: "&")
    }
}
