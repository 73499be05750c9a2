import Foundation
import Testing
import TravelogCore
import TravelogPhotos
import TravelogStore
import TravelogTestSupport

@Suite("Photos grouped for the map (the clusters the page draws for a range of many photos)")
struct PhotoClustersTests {
    static func photo(_ id: Int64, _ coordinate: Coordinate?, takenAt: Double?) -> PhotoPin {
        PhotoPin(id: PhotoID(rawValue: id), takenAt: takenAt.map(Date.init(timeIntervalSince1970:)), coordinate: coordinate)
    }

    /// 3,000 photos: most around Helsinki (a few streets to a whole region), some across the 180th
    /// meridian, some without a position, some without a time, several at one spot.
    static func photos() -> [PhotoPin] {
        var random = SplitMix64(seed: 32)
        var found: [PhotoPin] = []
        for id in 1...3_000 {
            let coordinate: Coordinate?
            switch id % 10 {
            case 0: coordinate = nil
            case 1: coordinate = Coordinate(validLatitude: -17 + Double.random(in: -0.5...0.5, using: &random),
                                            longitude: Bool.random(using: &random) ? 179.9 : -179.95)
            case 2: coordinate = Coordinate(validLatitude: 60.17, longitude: 24.94)  // one spot, many photos
            default: coordinate = Coordinate(validLatitude: 60.0 + Double.random(in: 0...0.6, using: &random),
                                             longitude: 24.5 + Double.random(in: 0...1, using: &random))
            }
            let time: Double? = id % 7 == 0 ? nil : 1_717_200_000 + Double(Int.random(in: 0..<5_000, using: &random))
            found.append(photo(Int64(id), coordinate, takenAt: time))
        }
        return found
    }

    /// The tile pixel of a coordinate at the zoom (256 px tiles), by the spherical Mercator formulas.
    static func pixel(_ coordinate: Coordinate, zoom: Int) -> (x: Double, y: Double) {
        let scale = 256 * pow(2, Double(zoom))
        let sine = sin(min(max(coordinate.latitude, -85.0511287798), 85.0511287798) * .pi / 180)
        return ((coordinate.longitude + 180) / 360 * scale, (0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * scale)
    }

    @Test("every placed photo is in exactly one cluster, a cell's photos together, the newest shown, no two clusters overlapping",
          arguments: [0, 5, 9, 12, 15, 18, 22])
    func clustersHoldTheirPhotos(zoom: Int) {
        let photos = Self.photos()
        let grouped = PhotoClusters(photos: photos, zoom: zoom)
        let placed = photos.filter { $0.coordinate != nil }
        let byID = Dictionary(uniqueKeysWithValues: placed.map { ($0.id, $0) })
        #expect(grouped.total == photos.count)
        #expect(grouped.placed == placed.count)
        let members = grouped.clusters.flatMap(\.members)
        #expect(members.count == placed.count && Set(members) == Set(byID.keys), "each placed photo once")
        var clusterOf: [PhotoID: Int] = [:]
        for (index, cluster) in grouped.clusters.enumerated() {
            let photos = cluster.members.map { byID[$0]! }
            for photo in photos { clusterOf[photo.id] = index }
            #expect(cluster.count == photos.count)
            // The newest counted another way: latest time first, photos without one last, then the lowest id.
            let newest = photos.min { a, b in
                let ta = a.takenAt?.timeIntervalSince1970 ?? -.infinity, tb = b.takenAt?.timeIntervalSince1970 ?? -.infinity
                return ta != tb ? ta > tb : a.id < b.id
            }
            #expect(cluster.newest.id == newest?.id)
            #expect(cluster.box.south == photos.map { $0.coordinate!.latitude }.min())
            #expect(cluster.box.east == photos.map { $0.coordinate!.longitude }.max())
            #expect(cluster.box.contains(latitude: cluster.coordinate.latitude, longitude: cluster.coordinate.longitude),
                    "the mean of a cluster's photos lies in their box")
            if cluster.count == 1 { #expect(cluster.coordinate == cluster.newest.coordinate) }
        }
        // A cell's photos are never split (cells of 64 px, counted another way).
        let cells = Dictionary(grouping: placed) { photo -> [Int] in
            let (x, y) = Self.pixel(photo.coordinate!, zoom: zoom)
            return [Int((x / PhotoClusters.cellPixels).rounded(.down)), Int((y / PhotoClusters.cellPixels).rounded(.down))]
        }
        for (cell, photos) in cells { #expect(Set(photos.map { clusterOf[$0.id] }).count == 1, "cell \(cell)") }
        #expect(grouped.clusters.count <= cells.count)
        // No two clusters' icons on top of each other: middles at least mergePixels apart (the same side of the 180th meridian).
        let middles = grouped.clusters.map { Self.pixel($0.coordinate, zoom: zoom) }
        for first in middles.indices {
            for second in middles.indices where second > first {
                let distance = hypot(middles[first].x - middles[second].x, middles[first].y - middles[second].y)
                #expect(distance >= PhotoClusters.mergePixels * 0.999, "clusters \(first) and \(second) \(distance) px apart")
            }
        }
        #expect(grouped.clusters.map(\.count) == grouped.clusters.map(\.count).sorted(by: >), "most photos first")
        #expect(grouped.bounds == CoordinateBox(south: placed.map { $0.coordinate!.latitude }.min()!,
                                                west: placed.map { $0.coordinate!.longitude }.min()!,
                                                north: placed.map { $0.coordinate!.latitude }.max()!,
                                                east: placed.map { $0.coordinate!.longitude }.max()!))
    }

    @Test("100,000 photos at the deepest zoom without a view: every one its own pin (the merge looks at neighbouring squares only, not every pair)")
    func many() {
        var random = SplitMix64(seed: 100_000)
        let photos = (1...100_000).map { id in
            Self.photo(Int64(id), Coordinate(validLatitude: 60 + Double.random(in: 0...0.3, using: &random),
                                             longitude: 24.5 + Double.random(in: 0...1, using: &random)), takenAt: Double(id))
        }
        let grouped = PhotoClusters(photos: photos, zoom: PhotoClusters.deepestZoom)
        #expect(grouped.clusters.reduce(0) { $0 + $1.count } == 100_000)
        #expect(grouped.clusters.count > 99_000, "photos metres apart stay apart at zoom 22")
    }

    @Test("a view keeps the clusters of its photos only, across the 180th meridian too; the range's counts stay whole")
    func view() {
        let photos = Self.photos()
        let helsinki = CoordinateBox(south: 60.1, west: 24.8, north: 60.3, east: 25.1)
        let across = CoordinateBox(south: -20, west: 179, north: -14, east: -179)
        for view in [helsinki, across] {
            let grouped = PhotoClusters(photos: photos, zoom: 11, view: view)
            let inside = photos.filter { $0.coordinate.map { view.contains(latitude: $0.latitude, longitude: $0.longitude) } ?? false }
            #expect(!inside.isEmpty)
            #expect(grouped.clusters.reduce(0) { $0 + $1.count } == inside.count)
            #expect(grouped.total == photos.count && grouped.placed == photos.filter { $0.coordinate != nil }.count)
        }
        let split = PhotoClusters(photos: photos, zoom: 3, view: across)
        #expect(split.clusters.count == 2, "the meridian splits the photos east and west of it into two cells at any zoom")
        let one = PhotoClusters(photos: photos, zoom: PhotoClusters.deepestZoom, view: CoordinateBox(south: 60.169, west: 24.939, north: 60.171, east: 24.941))
        #expect(one.clusters.first?.count == 300, "photos at one spot stay one cluster at the deepest zoom")
    }

    @Test("no photo, or none placed: no clusters and no bounds; a zoom out of range is clamped")
    func empty() {
        #expect(PhotoClusters(photos: [], zoom: 5).clusters.isEmpty)
        let unplaced = PhotoClusters(photos: [Self.photo(1, nil, takenAt: 0)], zoom: 5)
        #expect(unplaced.total == 1 && unplaced.placed == 0 && unplaced.bounds == nil && unplaced.clusters.isEmpty)
        let spot = [Self.photo(1, Coordinate(validLatitude: 1, longitude: 1), takenAt: 0),
                    Self.photo(2, Coordinate(validLatitude: 1.000001, longitude: 1), takenAt: 0)]
        #expect(PhotoClusters(photos: spot, zoom: 99).clusters.count == PhotoClusters(photos: spot, zoom: PhotoClusters.deepestZoom).clusters.count)
        #expect(PhotoClusters(photos: spot, zoom: -4).clusters.map(\.count) == [2])
        #expect(PhotoClusters(photos: spot, zoom: 0).clusters.first?.newest.id == PhotoID(rawValue: 1), "equal times: the lower id")
    }
}
