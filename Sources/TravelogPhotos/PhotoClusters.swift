import TravelogCore
import TravelogStore

/// Photos grouped for a map at one zoom (issue 32: the page stays fluid with 100,000 pins): the
/// Web Mercator plane is cut into square cells of ``cellPixels`` screen pixels at that zoom, the
/// placed photos of each cell are one cluster, and clusters whose middles lie closer than
/// ``mergePixels`` become one; each is drawn at its photos' mean position with their count and
/// their newest photo. The server sends the page a few hundred clusters instead of every photo, so
/// what the browser draws does not grow with the photos of the range.
///
/// A grid rather than a greedy radius (Leaflet.markercluster, Supercluster): one pass, and the
/// same photos give the same clusters whatever the view, so panning never reshuffles them.
public struct PhotoClusters: Sendable {
    /// The side of a cell on the screen, CSS pixels (about two pins' width).
    public static let cellPixels = 64.0
    /// The deepest zoom the page asks clusters for; at it and beyond, each photo is its own pin.
    public static let deepestZoom = 22

    public struct Cluster: Hashable, Sendable {
        /// The mean position of its photos on the plane (a cell never spans the 180th meridian).
        public var coordinate: Coordinate
        public var count: Int
        /// The photo taken last (the lowest id among equal times; photos without a time come last).
        public var newest: PhotoPin
        /// The box of its photos, for zooming to them.
        public var box: CoordinateBox
        /// Its photos.
        public var members: [PhotoID]

        /// What a pin of it says: "Photo" or "12 photos".
        public var title: String { count == 1 ? "Photo" : "\(count) photos" }
    }

    /// The range's photos, placed or not.
    public var total = 0
    /// Those with a position.
    public var placed = 0
    /// The box of every placed photo (`nil`: none), whatever the view.
    public var bounds: CoordinateBox?
    /// The clusters of the placed photos inside the view, most photos first.
    public var clusters: [Cluster] = []

    /// Groups `photos` for a map at `zoom` (clamped to 0…``deepestZoom``), keeping the clusters of
    /// photos inside `view` (all when `nil`; a view whose west is east of its east crosses the 180th
    /// meridian).
    public init(photos: [PhotoPin], zoom: Int, view: CoordinateBox? = nil) {
        let zoom = min(max(zoom, 0), Self.deepestZoom)
        let pixel = WebMercator.worldSizeMapPoints / (256 * Double(1 << zoom))
        let cell = Self.cellPixels * pixel
        var groups: [Int64: Group] = [:]
        var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity
        total = photos.count
        for photo in photos {
            guard let coordinate = photo.coordinate else { continue }
            placed += 1
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            west = min(west, coordinate.longitude)
            east = max(east, coordinate.longitude)
            if let view, !view.contains(latitude: coordinate.latitude, longitude: coordinate.longitude) { continue }
            let point = MapPoint(coordinate)
            let key = Int64((point.x / cell).rounded(.down)) << 32 | Int64((point.y / cell).rounded(.down))
            if groups[key] == nil {
                groups[key] = Group(photo, point: point, coordinate: coordinate)
            } else {
                groups[key]!.add(photo, point: point, coordinate: coordinate)
            }
        }
        if placed > 0 { bounds = CoordinateBox(south: south, west: west, north: north, east: east) }
        clusters = Self.merged(Array(groups.values), within: Self.mergePixels * pixel).map(\.cluster)
            .sorted { ($0.count, $1.newest.id) > ($1.count, $0.newest.id) }
    }

    /// Clusters whose middles are closer than this on the screen become one (two cells' clusters can
    /// lie a few pixels apart across their border), CSS pixels: a cluster's icon is 44 wide and its
    /// count sticks out 6 more.
    public static let mergePixels = 56.0

    /// The photos of a cell, or of cells merged.
    struct Group {
        var sumX: Double, sumY: Double
        var newest: PhotoPin
        var box: CoordinateBox
        var members: [PhotoID]

        init(_ photo: PhotoPin, point: MapPoint, coordinate: Coordinate) {
            (sumX, sumY, newest, members) = (point.x, point.y, photo, [photo.id])
            box = CoordinateBox(south: coordinate.latitude, west: coordinate.longitude, north: coordinate.latitude, east: coordinate.longitude)
        }

        var count: Int { members.count }
        var middle: MapPoint { MapPoint(x: sumX / Double(count), y: sumY / Double(count)) }

        mutating func add(_ photo: PhotoPin, point: MapPoint, coordinate: Coordinate) {
            sumX += point.x
            sumY += point.y
            members.append(photo.id)
            if PhotoClusters.isNewer(photo, than: newest) { newest = photo }
            box = CoordinateBox(south: min(box.south, coordinate.latitude), west: min(box.west, coordinate.longitude),
                                north: max(box.north, coordinate.latitude), east: max(box.east, coordinate.longitude))
        }

        mutating func absorb(_ other: Group) {
            sumX += other.sumX
            sumY += other.sumY
            members += other.members
            if PhotoClusters.isNewer(other.newest, than: newest) { newest = other.newest }
            box = CoordinateBox(south: min(box.south, other.box.south), west: min(box.west, other.box.west),
                                north: max(box.north, other.box.north), east: max(box.east, other.box.east))
        }

        var cluster: Cluster {
            // One photo: exactly where it was taken, not its round trip through the plane. The mean lies
            // in the photos' box; clamped so the projection's rounding never puts it a hair outside.
            let mean = middle.coordinate
            let coordinate = count == 1 ? newest.coordinate! : Coordinate(
                validLatitude: min(max(mean.latitude, box.south), box.north), longitude: min(max(mean.longitude, box.west), box.east))!
            return Cluster(coordinate: coordinate, count: count, newest: newest, box: box, members: members)
        }
    }

    /// Merges groups closer than `distance` (map points, less than a cell), the largest absorbing first,
    /// until no two are that close. Two groups that close have their middles in the same or
    /// neighbouring squares of a grid of `distance`, so each looks at nine squares only.
    /// - Complexity: O(n) per pass; a pass merges, or is the last.
    static func merged(_ groups: [Group], within distance: Double) -> [Group] {
        var groups = groups.sorted { ($0.count, $1.newest.id) > ($1.count, $0.newest.id) }
        let limit = distance * distance
        func square(_ point: MapPoint) -> (Int64, Int64) { (Int64((point.x / distance).rounded(.down)), Int64((point.y / distance).rounded(.down))) }
        var changed = true
        while changed {
            changed = false
            var grid: [Int64: [Int]] = [:]
            for (index, group) in groups.enumerated() {
                let (x, y) = square(group.middle)
                grid[x << 32 | (y & 0xFFFF_FFFF), default: []].append(index)
            }
            var kept: [Group] = []
            var absorbed = [Bool](repeating: false, count: groups.count)
            for index in groups.indices where !absorbed[index] {
                absorbed[index] = true
                var group = groups[index]
                let middle = group.middle
                let (x, y) = square(middle)
                for dx in -1...1 {
                    for dy in -1...1 {
                        for other in grid[(x + Int64(dx)) << 32 | ((y + Int64(dy)) & 0xFFFF_FFFF)] ?? [] where !absorbed[other] {
                            let there = groups[other].middle
                            let ex = there.x - middle.x, ey = there.y - middle.y
                            if ex * ex + ey * ey < limit {
                                group.absorb(groups[other])
                                absorbed[other] = true
                                changed = true
                            }
                        }
                    }
                }
                kept.append(group)
            }
            groups = kept
        }
        return groups
    }

    /// Taken later; a photo with a time is newer than one without; equal times: the lower id.
    static func isNewer(_ photo: PhotoPin, than other: PhotoPin) -> Bool {
        switch (photo.takenAt, other.takenAt) {
        case let (mine?, theirs?): return mine != theirs ? mine > theirs : photo.id < other.id
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return photo.id < other.id
        }
    }
}
