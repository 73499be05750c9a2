import Foundation
import Synchronization
import TravelogStore

/// Counters for `/metrics`, in Prometheus' text format: requests by route and status, request
/// time, and locations stored, repeated and refused by source.
public final class ServerMetrics: Sendable {
    private struct RequestKey: Hashable { var method: String; var route: String; var status: Int }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var requestSeconds: [String: Double] = [:]
        var stored: [LocationSource: Int] = [:]
        var duplicates: [LocationSource: Int] = [:]
        var rejectedBatches: [String: Int] = [:]
        var quarantined: [String: Int] = [:]
    }

    private let state = Mutex(State())
    let startedAt = Date()

    public init() {}

    func recordRequest(method: String, route: String, status: Int, seconds: Double) {
        state.withLock { state in
            state.requests[RequestKey(method: method, route: route, status: status), default: 0] += 1
            state.requestSeconds[route, default: 0] += seconds
        }
    }

    func recordIngest(source: LocationSource, _ summary: InsertSummary) {
        state.withLock { state in
            state.stored[source, default: 0] += summary.inserted
            state.duplicates[source, default: 0] += summary.duplicates
        }
    }

    func recordRejectedBatch(endpoint: String) {
        state.withLock { $0.rejectedBatches[endpoint, default: 0] += 1 }
    }

    func recordQuarantined(route: String, count: Int) {
        state.withLock { $0.quarantined[route, default: 0] += count }
    }

    /// Locations stored since start, all sources.
    public var storedLocations: Int { state.withLock { $0.stored.values.reduce(0, +) } }

    /// The exposition text.
    func render(liveSubscribers: Int) -> String {
        let snapshot = state.withLock { $0 }
        var lines: [String] = []
        func label(_ value: String) -> String {
            value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        }
        lines.append("# HELP travelog_http_requests_total HTTP requests answered, by route and status.")
        lines.append("# TYPE travelog_http_requests_total counter")
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            lines.append("travelog_http_requests_total{method=\"\(key.method)\",route=\"\(label(key.route))\",status=\"\(key.status)\"} \(count)")
        }
        lines.append("# HELP travelog_http_request_seconds_total Time spent answering, by route.")
        lines.append("# TYPE travelog_http_request_seconds_total counter")
        for (route, seconds) in snapshot.requestSeconds.sorted(by: { $0.key < $1.key }) {
            lines.append("travelog_http_request_seconds_total{route=\"\(label(route))\"} \(seconds)")
        }
        lines.append("# HELP travelog_ingested_locations_total Locations stored, by source.")
        lines.append("# TYPE travelog_ingested_locations_total counter")
        for source in LocationSource.allCases {
            lines.append("travelog_ingested_locations_total{source=\"\(source.rawValue)\"} \(snapshot.stored[source] ?? 0)")
        }
        lines.append("# HELP travelog_duplicate_locations_total Locations received again and not stored twice, by source.")
        lines.append("# TYPE travelog_duplicate_locations_total counter")
        for source in LocationSource.allCases {
            lines.append("travelog_duplicate_locations_total{source=\"\(source.rawValue)\"} \(snapshot.duplicates[source] ?? 0)")
        }
        lines.append("# HELP travelog_rejected_batches_total Ingest requests refused with 400, by endpoint.")
        lines.append("# TYPE travelog_rejected_batches_total counter")
        for (endpoint, count) in snapshot.rejectedBatches.sorted(by: { $0.key < $1.key }) {
            lines.append("travelog_rejected_batches_total{endpoint=\"\(label(endpoint))\"} \(count)")
        }
        lines.append("# HELP travelog_rejected_items_total Items of phone-app batches set aside for their user, by route.")
        lines.append("# TYPE travelog_rejected_items_total counter")
        for (route, count) in snapshot.quarantined.sorted(by: { $0.key < $1.key }) {
            lines.append("travelog_rejected_items_total{route=\"\(label(route))\"} \(count)")
        }
        lines.append("# HELP travelog_live_subscribers Open live event streams.")
        lines.append("# TYPE travelog_live_subscribers gauge")
        lines.append("travelog_live_subscribers \(liveSubscribers)")
        lines.append("# HELP travelog_uptime_seconds Seconds since the server started.")
        lines.append("# TYPE travelog_uptime_seconds gauge")
        lines.append("travelog_uptime_seconds \(Date().timeIntervalSince(startedAt))")
        return lines.joined(separator: "\n") + "\n"
    }
}
