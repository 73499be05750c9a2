import Foundation
import Synchronization

/// The live breadcrumb path of a tracked device, safe to read from many threads while one or
/// more writers add to it. The rules are those of ``BreadcrumbPathState``; this class only adds
/// a lock (`Synchronization.Mutex`) around it. Reads return values, never references into the
/// locked state, so a reader never sees a half-added point.
public final class BreadcrumbPath: Overlay {
    private let state: Mutex<BreadcrumbPathState>

    /// An empty path with the given rules (by default 60 s, the first 10 kept, 10 m).
    public init(rules: BreadcrumbPathState.Rules = .standard) {
        state = Mutex(BreadcrumbPathState(rules: rules))
    }

    /// Applies the rules to a location and keeps it if they allow; see
    /// ``BreadcrumbPathState/add(_:source:)``.
    /// - Returns: whether it was kept, and the map rect that changed.
    public func add(_ location: Location, source: BreadcrumbPathState.Source) -> BreadcrumbDecision {
        state.withLock { $0.add(location, source: source) }
    }

    /// Adds locations in order under one lock (an import of history, or a batch from a phone).
    /// - Returns: the union of the rects that changed, ``MapRect/null`` if none was kept.
    /// - Complexity: O(n).
    public func add(contentsOf locations: some Sequence<Location>, source: BreadcrumbPathState.Source) -> MapRect {
        state.withLock { path in
            locations.reduce(MapRect.null) { $0.union(path.add($1, source: source).changedMapRect) }
        }
    }

    /// A consistent copy of the whole path at this moment.
    /// - Complexity: O(1): the arrays are shared copy-on-write until the next addition.
    public var snapshot: BreadcrumbPathState { state.withLock { $0 } }

    /// How many locations are kept.
    public var count: Int { state.withLock { $0.locations.count } }

    /// The most recent kept location, if any.
    public var lastLocation: Location? { state.withLock { $0.locations.last } }

    /// The smallest rect holding the whole path; it only grows.
    public var boundingMapRect: MapRect { state.withLock { $0.boundingMapRect } }

    /// Whether a segment of the path, as it is now, meets the rect (on the wrapped world); see
    /// ``Polyline/intersects(_:)``.
    /// - Complexity: O(n), outside the lock.
    public func intersects(_ mapRect: MapRect) -> Bool {
        snapshot.polyline.intersects(mapRect)
    }
}
