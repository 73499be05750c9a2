import Foundation
import Hummingbird

/// Counts every request by its route (the matched path pattern, so `/vendor/leaflet/{file}` is one
/// series, not one per file) and status, and the time each took.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = TravelogRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        func record(_ status: Int) {
            metrics.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                                  status: status, duration: ContinuousClock.now - start)
        }
        do {
            let response = try await next(request, context)
            record(response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            record(error.status.code)
            throw error
        } catch {
            record(500)
            throw error
        }
    }
}
