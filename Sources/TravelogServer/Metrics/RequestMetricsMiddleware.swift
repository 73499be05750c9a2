import Foundation
import Hummingbird

/// Counts every request by its route (the matched path pattern, so `/vendor/leaflet/{file}` is one
/// series, not one per file) and status, and adds up the time spent.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = TravelogRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        func record(_ status: Int) {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            metrics.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
                                  status: status, seconds: seconds)
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
