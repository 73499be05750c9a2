import Foundation
import TravelogFormats

/// Figures for the JSON location readers: records per second, MB/s and the peak memory while
/// reading files far larger than the parser's window.
enum LocationJSONBenchmarks {
    /// `geojson-read`: an Overland-style FeatureCollection of one million Point features, then one
    /// LineString feature of one million positions with `coordTimes` (a feature is held whole).
    static func geojson(_ context: BenchmarkContext) throws {
        let points = context.workDirectory.appendingPathComponent("overland-1M.geojson")
        try TextFormatBenchmarks.generate(points, header: #"{"type":"FeatureCollection","features":["# + "\n") { index in
            let time = Date(timeIntervalSince1970: Double(1_718_447_400 + index)).ISO8601Format()
            return (index == 0 ? "" : ",\n")
                + #"{"type":"Feature","geometry":{"type":"Point","coordinates":["#
                + "\(-122.03 + Double(index % 1000) * 1e-5),\(37.33 + Double(index % 777) * 1e-5)]},"
                + #""properties":{"timestamp":""# + time + #"","altitude":12,"speed":4.2,"horizontal_accuracy":5,"#
                + #""vertical_accuracy":3,"course":180,"motion":["driving"],"battery_state":"unplugged","battery_level":0.8,"wifi":""}}"#
        }
        try appendOnce(points, "\n]}\n")
        try TextFormatBenchmarks.read(points, label: "GeoJSONReader, Overland Point features") { source in
            GeoJSONReader(source: source)
        }

        let line = context.workDirectory.appendingPathComponent("linestring-1M.geojson")
        // Written in two passes (times, then positions), so that generating it costs little memory.
        let times = context.workDirectory.appendingPathComponent("linestring-1M.times")
        try TextFormatBenchmarks.generate(times, header: #"{"type":"Feature","properties":{"coordTimes":["#) { index in
            (index == 0 ? "" : ",") + "\(1_718_447_400 + index)"
        }
        try TextFormatBenchmarks.generate(line, header: String(decoding: try Data(contentsOf: times), as: UTF8.self)
                                          + #"]},"geometry":{"type":"LineString","coordinates":["#) { index in
            (index == 0 ? "" : ",") + "[\(13.4 + Double(index % 999) * 1e-5),\(52.5 + Double(index % 1001) * 1e-5),34]"
        }
        try appendOnce(line, "]}}\n")
        try TextFormatBenchmarks.read(line, label: "GeoJSONReader, one LineString with coordTimes") { source in
            GeoJSONReader(source: source)
        }
    }

    /// `owntracks-read`: a Recorder `.rec` log of one million location lines.
    static func owntracks(_ context: BenchmarkContext) throws {
        let url = context.workDirectory.appendingPathComponent("owntracks-1M.rec")
        try TextFormatBenchmarks.generate(url, header: "") { index in
            let seconds = 1_709_283_789 + index
            let time = Date(timeIntervalSince1970: Double(seconds)).ISO8601Format()
            return time + "\t*                 \t"
                + #"{"_type":"location","tid":"RO","lat":"# + "\(52.2 + Double(index % 1000) * 1e-5),\"lon\":\(13.3 + Double(index % 777) * 1e-5)"
                + #","tst":"# + "\(seconds)" + #","acc":10,"alt":36,"vac":4,"vel":18,"cog":98,"batt":94,"bs":2,"conn":"w","t":"p","m":1,"_http":true}"#
                + "\n"
        }
        try TextFormatBenchmarks.read(url, label: "OwnTracksReader, .rec location lines") { source in
            OwnTracksReader(source: source)
        }
    }

    /// Appends `tail` to a generated file unless it already ends with it.
    static func appendOnce(_ url: URL, _ tail: String) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        let tailBytes = Data(tail.utf8)
        try handle.seek(toOffset: size - UInt64(min(Int(size), tailBytes.count)))
        if try handle.readToEnd() == tailBytes { return }
        try handle.seekToEnd()
        try handle.write(contentsOf: tailBytes)
    }
}
