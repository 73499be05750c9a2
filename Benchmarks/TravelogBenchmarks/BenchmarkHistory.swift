import Foundation

/// A generated history of someone's days, for benchmarks that need a full database: one fix a
/// minute, stays of one to three hours at 300 places around Berlin, and trips between them at
/// 10 m/s (about one visit every 2.6 hours: 5M locations give some 30k visits).
enum BenchmarkHistory {
    static let fixIntervalSeconds: Int64 = 60
    static let placeCount = 300
    static let tripMetersPerFix = 600.0
    static let metersPerDegreeLatitude = 111_200.0

    /// A CSV file (`time,latitude,longitude`) of `locations` fixes, the last one an hour before
    /// `endEpochSeconds`; written once per size and reused.
    /// - Parameter intervalSeconds: between fixes (stays last as long and trips go as fast at any interval).
    static func csv(in directory: URL, locations: Int, endingAt endEpochSeconds: Int64,
                    intervalSeconds: Int64 = fixIntervalSeconds) throws -> URL {
        let name = intervalSeconds == fixIntervalSeconds ? "history-\(locations).csv" : "history-\(locations)-every-\(intervalSeconds)s.csv"
        let url = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        // Written under another name first, so that an interrupted run leaves no half file to reuse.
        let partial = url.appendingPathExtension("partial")
        _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
        let handle = try FileHandle(forWritingTo: partial)
        var random = SplitMix64(seed: 1010)
        let places = (0..<placeCount).map { _ in
            (latitude: 52.52 + (random.nextUnit() - 0.5) * 0.3, longitude: 13.405 + (random.nextUnit() - 0.5) * 0.45)
        }
        var buffer = ByteBuffer()
        buffer.append("time,latitude,longitude\n")
        var time = endEpochSeconds - 3600 - Int64(locations) * intervalSeconds
        var written = 0
        func fix(_ latitude: Double, _ longitude: Double) {
            buffer.appendISO8601(milliseconds: time * 1000)
            buffer.append(",")
            buffer.append(fixed: latitude)
            buffer.append(",")
            buffer.append(fixed: longitude)
            buffer.append("\n")
            time += intervalSeconds
            written += 1
            if buffer.count >= 1 << 20 {
                handle.write(buffer.data)
                buffer.removeAll()
            }
        }
        var here = places[0]
        while written < locations {
            // A stay of 60 to 200 minutes, each fix within about 15 m of the place.
            for _ in 0..<((60 + Int(random.nextUnit() * 140)) * Int(fixIntervalSeconds / intervalSeconds)) where written < locations {
                fix(here.latitude + (random.nextUnit() - 0.5) * 3e-4, here.longitude + (random.nextUnit() - 0.5) * 4e-4)
            }
            let next = places[Int(random.nextUnit() * Double(placeCount))]
            let northMeters = (next.latitude - here.latitude) * metersPerDegreeLatitude
            let eastMeters = (next.longitude - here.longitude) * metersPerDegreeLatitude * cos(here.latitude * .pi / 180)
            let steps = Int((northMeters * northMeters + eastMeters * eastMeters).squareRoot()
                            / (tripMetersPerFix * Double(intervalSeconds) / Double(fixIntervalSeconds)))
            for step in 0..<steps where written < locations {
                let fraction = Double(step + 1) / Double(steps + 1)
                fix(here.latitude + (next.latitude - here.latitude) * fraction,
                    here.longitude + (next.longitude - here.longitude) * fraction)
            }
            here = next
        }
        handle.write(buffer.data)
        try handle.close()
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }
}
