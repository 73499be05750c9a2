import HTTPTypes
import Hummingbird
import TravelogStore

/// Answers what the router itself refuses as the API's JSON errors (`{"error": "…"}`): a method a
/// known path does not take is a 405 with `Allow` (not a bare 404), an unknown path a 404, and any
/// other of Hummingbird's own errors (a body over the limit: 413) keeps its status with a JSON body.
/// A store error that a route let through is answered as `APIError.storeFailed`: the database
/// failing (PostgreSQL restarting) is a 503 with a JSON error on every route, never a bare 500.
struct RouterErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let registry: RouteRegistry

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status == .notFound {
                let allowed = registry.methods(matching: request.uri.path)
                if !allowed.isEmpty {
                    var response = try APIError.methodNotAllowed(
                        "\(request.method.rawValue) is not allowed on \(request.uri.path): use \(allowed.joined(separator: ", "))")
                        .response(from: request, context: context)
                    response.headers[.allow] = allowed.joined(separator: ", ")
                    return response
                }
                throw APIError.notFound("no such path: \(request.uri.path)")
            }
            throw APIError.http(status: error.status, error.body ?? error.status.reasonPhrase)
        } catch let error as StoreError {
            throw APIError.storeFailed(error)
        }
    }
}
