import Foundation
import TravelogCore
import TravelogFormats

/// Region monitoring: how many fixes per second go through a monitor holding 10,000 regions
/// (target ≥ 1M/s), and how many transitions a real track that lingers on a region's edge makes
/// with the monitor's cushion and dwell time, against a plain point-in-circle check.
enum RegionBenchmarks {
    static let regionCount = 10_000
    static var fixCount: Int {
        ProcessInfo.processInfo.environment["TRAVELOG_BENCH_REGION_FIXES"].flatMap(Int.init) ?? 1_000_000
    }

    /// `regions`: 10,000 regions (circles, every fifth a square) and a device driving, walking
    /// and staying among them, a fix per second with 5–25 m of accuracy. Two layouts: a metro
    /// area (radii 50 m–1 km over 100 km × 100 km: a fix lies in about half a region) and a dense
    /// one (radii 30 m–3 km over 40 km × 40 km: a fix lies in about 19 regions, each of which is
    /// tested on every fix for an exit).
    static func throughput(_ context: BenchmarkContext) throws {
        try run(label: "metro area", halfSideMeters: 50_000, radiiMeters: 50...1_000)
        try run(label: "dense", halfSideMeters: 20_000, radiiMeters: 30...3_000)
    }

    static func run(label: String, halfSideMeters: Double, radiiMeters: ClosedRange<Double>) throws {
        var random = SplitMix64(seed: 13)
        let origin = Coordinate(validLatitude: 52.52, longitude: 13.405)!
        let metersPerDegreeLatitude = 111_250.0, metersPerDegreeLongitude = 111_250.0 * cos(52.52 * .pi / 180)
        // Places on the local plane, metres east and north (exact enough for benchmark inputs).
        func place(east: Double, north: Double) -> Coordinate {
            Coordinate(validLatitude: origin.latitude + north / metersPerDegreeLatitude,
                       longitude: origin.longitude + east / metersPerDegreeLongitude)!
        }
        let side = -halfSideMeters...halfSideMeters
        let setup = ContinuousClock.now
        var monitor = RegionMonitor(configuration: .init(maximumRegionCount: regionCount))
        for index in 0..<regionCount {
            let center = place(east: Double.random(in: side, using: &random), north: Double.random(in: side, using: &random))
            let radius = radiiMeters.lowerBound * pow(radiiMeters.upperBound / radiiMeters.lowerBound, Double.random(in: 0...1, using: &random))
            let region: MonitoredRegion
            if index % 5 == 4 {
                let ring = [45.0, 135, 225, 315].map { center.destination(bearingDegrees: $0, distanceMeters: radius * 1.4) }
                region = try MonitoredRegion(identifier: "square \(index)", shape: .polygon(Polygon(exteriorRing: ring)))
            } else {
                region = try MonitoredRegion.circle("circle \(index)", center: center, radiusMeters: radius)
            }
            try monitor.register(region)
        }
        let registration = VisitBenchmark.seconds(since: setup)

        let fixCount = Self.fixCount
        var locations: [Location] = []
        locations.reserveCapacity(fixCount)
        var east = 0.0, north = 0.0, time = 800_000_000.0
        while locations.count < fixCount {
            let targetEast = Double.random(in: side, using: &random), targetNorth = Double.random(in: side, using: &random)
            let speed = [1.4, 4, 12][Int(random.next() % 3)]
            let length = max(hypot(targetEast - east, targetNorth - north), 1)
            let steps = Int(length / speed) + Int(random.next() % 1_800)  // the trip, then a stay
            let (fromEast, fromNorth) = (east, north)
            for step in 0..<steps where locations.count < fixCount {
                let fraction = min(1, Double(step) * speed / length)
                east = fromEast + fraction * (targetEast - fromEast)
                north = fromNorth + fraction * (targetNorth - fromNorth)
                locations.append(Location(coordinate: place(east: east + Double.random(in: -5...5, using: &random),
                                                            north: north + Double.random(in: -5...5, using: &random)),
                                          horizontalAccuracyMeters: Double.random(in: 5...25, using: &random),
                                          timestamp: Date(timeIntervalSinceReferenceDate: time)))
                time += 1
            }
        }
        var entries = 0, exits = 0
        let start = ContinuousClock.now, startCPU = processCPUSeconds()
        for location in locations {
            for event in monitor.ingest(location) {
                if event.kind == .entry { entries += 1 } else { exits += 1 }
            }
        }
        let elapsed = VisitBenchmark.seconds(since: start), cpu = processCPUSeconds() - startCPU
        print(String(format: "region monitoring, %@: %d regions registered in %.2f s; %d fixes in %.2f s, %.2f M fixes/s (%.2f M/s of CPU time; target ≥ 1M/s); %d entries, %d exits",
                     label, regionCount, registration, locations.count, elapsed, Double(locations.count) / elapsed / 1e6,
                     Double(locations.count) / cpu / 1e6, entries, exits))
    }

    /// The CPU time this process has used, seconds: on a machine shared with other work the
    /// wall clock also counts the time spent waiting for a core.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// `region-edge`: real recorded tracks from `../shared/fixtures` with a region placed so that
    /// its edge runs through where the track lingers; transitions counted by the monitor and by a
    /// plain point-in-circle check (every change of inside/outside between consecutive fixes).
    static func boundaryTrack(_ context: BenchmarkContext) throws {
        let fixtures = ProcessInfo.processInfo.environment["TRAVELOG_SHARED_FIXTURES"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        let tracks = [
            ("reitti/gpx/20250531.gpx", "a day of GPSLogger network and GPS fixes; home's edge through the night's stay"),
            ("reitti/gpx/20250617.gpx", "another day; home's edge through the longest stay"),
            ("trackintel-geolife/geolife_long/001/Trajectory/20081023234104.plt", "a GeoLife day in Beijing; the edge through the longest stay"),
        ]
        for (path, label) in tracks {
            let url = fixtures.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path) else {
                print("\(path): absent (../shared/fixtures is needed beside the repository), skipped")
                continue
            }
            let locations = try read(url)
            guard let stay = longestStayCenter(locations) else { continue }
            for radius in [100.0, 250] {
                // The centre `radius` north of the stay: the circle's edge runs through it.
                let center = stay.destination(bearingDegrees: 0, distanceMeters: radius)
                let circle = try Circle(center: center, radiusMeters: radius)
                var plain = 0
                var previous: Bool?
                for location in locations {
                    let inside = circle.contains(location.coordinate)
                    if let previous, previous != inside { plain += 1 }
                    previous = inside
                }
                var monitor = RegionMonitor(configuration: .init(invalidAccuracyPolicy: .assume(meters: 20)))
                try monitor.register(MonitoredRegion(identifier: "home", shape: .circle(circle)))
                let events = monitor.ingest(contentsOf: locations)
                print("\(path) (\(label)), \(locations.count) fixes, circle of \(Int(radius)) m: point-in-circle \(plain) transitions, monitor \(events.count) (\(events.map { $0.kind == .entry ? "entry" : "exit" }.joined(separator: ", ")))")
            }
        }
    }

    /// The fixes of a GPX or GeoLife file, in time order (fixes without accuracy keep -1).
    static func read(_ url: URL) throws -> [Location] {
        let source = try FileByteSource(path: url.path)
        var locations: [Location] = []
        func collect<Reader: LocationFileReader>(_ reader: inout Reader) throws {
            while let record = try reader.next() {
                if case .point(let point) = record, let location = point.position.location { locations.append(location) }
            }
        }
        if url.pathExtension == "plt" {
            var reader = GeoLifeReader(source: source)
            try collect(&reader)
        } else {
            var reader = try GPXReader(source: source)
            try collect(&reader)
        }
        return locations.sorted { $0.timestamp < $1.timestamp }
    }

    /// The centre of the longest stretch of fixes that all lie within 50 m of its first fix.
    static func longestStayCenter(_ locations: [Location]) -> Coordinate? {
        var best: (start: Int, end: Int)?
        var start = 0
        while start < locations.count {
            var end = start
            while end + 1 < locations.count, locations[start].coordinate.distanceMeters(to: locations[end + 1].coordinate) <= 50 { end += 1 }
            let duration = locations[end].timestamp.timeIntervalSince(locations[start].timestamp)
            if duration > best.map({ locations[$0.end].timestamp.timeIntervalSince(locations[$0.start].timestamp) }) ?? -1 {
                best = (start, end)
            }
            start = end + 1
        }
        guard let best else { return nil }
        let stay = locations[best.start...best.end]
        let latitude = stay.reduce(0) { $0 + $1.coordinate.latitude } / Double(stay.count)
        let longitude = stay.reduce(0) { $0 + $1.coordinate.longitude } / Double(stay.count)
        return Coordinate(validLatitude: latitude, longitude: longitude)
    }
}
