import CoreMetrics
import Foundation
import Prometheus
import Synchronization
import TravelogStore

/// The server's counters, recorded through swift-metrics and exposed by swift-prometheus on
/// `/metrics`: requests by route and status with their durations, and locations stored, repeated
/// and set aside by source or route.
///
/// Each server has a registry of its own and records through its factory rather than the
/// process-wide `MetricsSystem`, which can be bootstrapped only once: tests run many servers in one
/// process, and none of the libraries the server uses records metrics of its own.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    /// The swift-metrics factory writing into ``registry``.
    public let factory: PrometheusMetricsFactory
    private let stored: [LocationSource: CoreMetrics.Counter]
    private let duplicates: [LocationSource: CoreMetrics.Counter]
    private let liveSubscribers: Meter
    private let uptime: Meter
    private let storedTotal = Atomic<Int>(0)
    private let started = ContinuousClock.now

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(1), .milliseconds(5), .milliseconds(10),
                                                   .milliseconds(25), .milliseconds(50), .milliseconds(100),
                                                   .milliseconds(250), .milliseconds(500), .seconds(1),
                                                   .milliseconds(2500), .seconds(10), .seconds(60)]
        self.factory = factory
        // Every source has a series from the start, at 0, so a dashboard sees a source that never reported.
        stored = Dictionary(uniqueKeysWithValues: LocationSource.allCases.map { source in
            (source, CoreMetrics.Counter(label: "travelog_ingested_locations_total",
                                         dimensions: [("source", source.rawValue)], factory: factory))
        })
        duplicates = Dictionary(uniqueKeysWithValues: LocationSource.allCases.map { source in
            (source, CoreMetrics.Counter(label: "travelog_duplicate_locations_total",
                                         dimensions: [("source", source.rawValue)], factory: factory))
        })
        liveSubscribers = Meter(label: "travelog_live_subscribers", factory: factory)
        uptime = Meter(label: "travelog_uptime_seconds", factory: factory)
    }

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        CoreMetrics.Counter(label: "travelog_http_requests_total",
                            dimensions: [("method", method), ("route", route), ("status", String(status))],
                            factory: factory).increment()
        CoreMetrics.Timer(label: "travelog_http_request_duration_seconds", dimensions: [("route", route)],
                          factory: factory)
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    func recordIngest(source: LocationSource, _ summary: InsertSummary) {
        stored[source]?.increment(by: summary.inserted)
        duplicates[source]?.increment(by: summary.duplicates)
        storedTotal.add(summary.inserted, ordering: .relaxed)
    }

    func recordRejectedBatch(endpoint: String) {
        CoreMetrics.Counter(label: "travelog_rejected_batches_total", dimensions: [("endpoint", endpoint)],
                            factory: factory).increment()
    }

    func recordQuarantined(route: String, count: Int) {
        CoreMetrics.Counter(label: "travelog_rejected_items_total", dimensions: [("route", route)],
                            factory: factory).increment(by: count)
    }

    /// Locations stored since start, all sources.
    public var storedLocations: Int { storedTotal.load(ordering: .relaxed) }

    /// The exposition text (Prometheus' text format 0.0.4).
    func render(liveSubscribers subscribers: Int) -> String {
        liveSubscribers.set(subscribers)
        let elapsed = ContinuousClock.now - started
        uptime.set(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        return registry.emitToString()
    }
}
