import Foundation
import Hummingbird
import Logging

/// Logs each request (method and path) at a level, with the value of every credential-bearing
/// query parameter replaced (`CredentialRedaction`). Hummingbird's `LogRequestsMiddleware` logs
/// the URI as sent, which put device tokens in debug logs.
struct RedactedRequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let level: Logger.Level

    init(_ level: Logger.Level) {
        self.level = level
    }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        context.logger.log(level: level, "request", metadata: [
            "hb.request.method": .string(request.method.rawValue),
            "hb.request.path": .string(CredentialRedaction.target(path: request.uri.path, query: request.uri.query)),
        ])
        return try await next(request, context)
    }
}
