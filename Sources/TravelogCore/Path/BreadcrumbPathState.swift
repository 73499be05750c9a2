import Foundation

/// The rules of a breadcrumb path (the live track drawn behind a moving device), as a plain
/// state machine: no locks, no clocks; the time is passed in. ``BreadcrumbPath`` wraps it for
/// use from many threads.
///
/// A location is kept when, in order:
/// 1. it comes from an import, or it is live and no older than ``Rules/maximumAgeSeconds``
///    (60 s) relative to `now` (a timestamp in the future is not old);
/// 2. fewer than ``Rules/alwaysKeptCount`` (10) locations are kept so far, so a path exists
///    while accuracy settles; or
/// 3. it lies more than ``Rules/minimumSpacingMeters`` (10 m, WGS84 geodesic) from the
///    previously kept location.
///
/// Accuracy is never consulted: a location with a large or unknown horizontal accuracy is kept
/// or dropped by the same rules as any other, since dropping imprecise fixes makes paths jump.
///
/// Source: Travelog SPEC, "The breadcrumb path", after Apple's Breadcrumb sample code
/// (`CrumbPath`).
public struct BreadcrumbPathState: Sendable, Hashable {
    /// The thresholds of the rules above.
    public struct Rules: Sendable, Hashable {
        /// A live location older than this, in seconds before `now`, is dropped.
        public let maximumAgeSeconds: Double
        /// This many locations are kept whatever their spacing.
        public let alwaysKeptCount: Int
        /// Beyond the first ones, a location must lie more than this far from the previously
        /// kept one, in metres.
        public let minimumSpacingMeters: Double

        /// Creates rules; the values must be finite and non-negative (a programming error otherwise).
        public init(maximumAgeSeconds: Double = 60, alwaysKeptCount: Int = 10, minimumSpacingMeters: Double = 10) {
            precondition(maximumAgeSeconds.isFinite && maximumAgeSeconds >= 0, "maximum age must be ≥ 0 s")
            precondition(alwaysKeptCount >= 0, "the count of locations always kept must be ≥ 0")
            precondition(minimumSpacingMeters.isFinite && minimumSpacingMeters >= 0, "minimum spacing must be ≥ 0 m")
            self.maximumAgeSeconds = maximumAgeSeconds
            self.alwaysKeptCount = alwaysKeptCount
            self.minimumSpacingMeters = minimumSpacingMeters
        }

        /// 60 s, the first 10 kept, 10 m.
        public static let standard = Rules()
    }

    /// Where a location comes from, which decides whether its age matters.
    public enum Source: Sendable, Hashable {
        /// A live update, judged against the current time `now`.
        case live(now: Date)
        /// History being imported: never too old.
        case imported
    }

    /// The thresholds in force.
    public let rules: Rules
    /// The kept locations, in the order they were added.
    public private(set) var locations: [Location] = []
    /// The kept locations as map points, one per location. Each is placed on the copy of the
    /// world nearest to the one before, so a path across the 180th meridian runs on past
    /// x = 2^28 instead of jumping back across the map.
    public private(set) var points: [MapPoint] = []
    /// The smallest rect holding every point; it only grows. ``MapRect/null`` while empty.
    public private(set) var boundingMapRect: MapRect = .null

    /// An empty path.
    public init(rules: Rules = .standard) {
        self.rules = rules
    }

    /// Applies the rules to a location and keeps it if they allow.
    /// - Returns: whether it was kept and, if so, the map rect that changed: the new segment
    ///   from the previous point to this one (a zero-size rect at the first point).
    /// - Complexity: O(1): one geodesic inverse problem at most (amortised, for the append).
    public mutating func add(_ location: Location, source: Source) -> BreadcrumbDecision {
        if case .live(let now) = source {
            let ageSeconds = now.timeIntervalSince(location.timestamp)
            if ageSeconds > rules.maximumAgeSeconds { return .tooOld(ageSeconds: ageSeconds) }
        }
        if locations.count >= rules.alwaysKeptCount, let previous = locations.last {
            let distanceMeters = location.distanceMeters(from: previous)
            if !(distanceMeters > rules.minimumSpacingMeters) { return .tooClose(distanceMeters: distanceMeters) }
        }
        var point = MapPoint(location.coordinate)
        let changed: MapRect
        if let previousPoint = points.last {
            point = point.wrapped(near: previousPoint)
            changed = MapRect(corner: previousPoint, corner: point)
        } else {
            changed = MapRect(origin: point, size: .zero)
        }
        locations.append(location)
        points.append(point)
        boundingMapRect = boundingMapRect.union(changed)
        return .added(changedMapRect: changed)
    }

    /// The path as a polyline through its points.
    public var polyline: Polyline { Polyline(points: points, boundingMapRect: boundingMapRect) }
}

/// What ``BreadcrumbPathState/add(_:source:)`` did with a location.
public enum BreadcrumbDecision: Sendable, Hashable {
    /// Kept; only `changedMapRect` (the new segment) needs redrawing, widened by the line width.
    case added(changedMapRect: MapRect)
    /// Dropped: a live location this many seconds older than `now`.
    case tooOld(ageSeconds: Double)
    /// Dropped: only this many metres from the previously kept location.
    case tooClose(distanceMeters: Double)

    /// Whether the location was kept.
    public var isAdded: Bool {
        if case .added = self { return true }
        return false
    }

    /// The map rect to redraw: the new segment, or ``MapRect/null`` when nothing changed.
    public var changedMapRect: MapRect {
        if case .added(let rect) = self { return rect }
        return .null
    }
}
