import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// The fast path for plain Point features (`GeoJSONPointFeatureScan`) against the event-by-event
/// reading it stands in for: every document must give the same records, skips, errors and
/// positions either way, whatever the features, the white space and the window size.
@Suite("GeoJSONReader: the fast path for Point features")
struct GeoJSONFastPathTests {
    /// What a whole read gives: the records, the skips, and the error that ended it, if any.
    struct Outcome: Equatable, CustomStringConvertible {
        var records: [FormatRecord] = []
        var skipped: [GeoJSONReader.SkipReason: Int] = [:]
        var error: FormatError?
        var consumed = 0
        /// Not compared: how many features the fast path read.
        var readFast = 0

        /// After an error, where the parser stopped inside the broken token does not matter.
        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            (lhs.records, lhs.skipped, lhs.error) == (rhs.records, rhs.skipped, rhs.error)
                && (lhs.error != nil || lhs.consumed == rhs.consumed)
        }

        var description: String {
            "\(records.count) records, skipped \(skipped), error \(error.map(String.init(describing:)) ?? "none"), \(consumed) bytes"
        }
    }

    static func read(_ text: String, fast: Bool, blockSizeBytes: Int = 1 << 20, chunk: Int = .max,
                     pointFeaturesOnly: Bool = false) -> Outcome {
        let reader = GeoJSONReader(source: MemoryByteSource(Array(text.utf8), maximumChunkBytes: chunk),
                                   options: JSONParser.Options(blockSizeBytes: blockSizeBytes),
                                   pointFeaturesOnly: pointFeaturesOnly, readsPlainPointsFast: fast)
        var outcome = Outcome()
        do {
            while let record = try reader.next() { outcome.records.append(record) }
        } catch {
            outcome.error = error
        }
        outcome.skipped = reader.skipped
        outcome.consumed = reader.bytesConsumed
        outcome.readFast = reader.plainPointsReadFast
        return outcome
    }

    /// Features as apps write them and as they go wrong; `T` is replaced by a time that differs
    /// per feature. The fast path reads the first few and must give up on most of the others.
    static let features: [String] = [
        // Overland's location, as the app sends it.
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4050521,52.5199634]},"properties":{"timestamp":"T","altitude":31,"speed":1.77,"horizontal_accuracy":27,"vertical_accuracy":7,"speed_accuracy":0.38,"course":75.58,"course_accuracy":21.95,"motion":["driving","stationary"],"battery_state":"unplugged","battery_level":0.87,"wifi":"","device_id":"bench-phone","pauses":false,"deferred":0,"significant_change":"disabled","locations_in_payload":1000}}"#,
        // Zeros and -1 for unknown, an altitude in the position, members in another order.
        #"{"properties":{"speed":0,"course":-1,"horizontal_accuracy":-1,"timestamp":"T","ele":12},"geometry":{"coordinates":[0,0,250.5],"type":"Point"},"type":"Feature","id":7}"#,
        // Nulls, an epoch time in milliseconds, the time under a lesser key first.
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-122.03,37.33]},"properties":{"date":"2001-01-01T00:00:00Z","time":null,"timestamp":1700000000123,"speed":null,"altitude":null,"extra":{"a":[1,2,{"b":null}]}}}"#,
        // Empty properties: a waypoint, not a fix.
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#,
        // An escape in a key, text that is not ASCII, a number in a string.
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"time\u0073tamp":"T","speed":"3.5"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"T","wifi":"Café"}}"#,
        // Values that reject the fix, with their positions.
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"T","course":400}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,95]},"properties":{"timestamp":"T"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[200,2]},"properties":{"timestamp":"T"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"yesterday"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1]},"properties":{"timestamp":"T"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3,4]},"properties":{"timestamp":"T"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"T","speed":true}}"#,
        // Keys given twice.
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"T","speed":1,"speed":2,"accuracy":5,"horizontal_accuracy":6}}"#,
        // Not a plain Point: a line, an event, a visit, a trip, no geometry, a geometry as the feature.
        #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"coordTimes":["T","T"]}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"T","action":"paused_location_updates"}}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"T","action":"visit","arrival_date":"2015-10-01T08:30:00Z","departure_date":null}}"#,
        #"{"type":"Feature","geometry":null,"properties":{"timestamp":"T"}}"#,
        #"{"type":"Point","coordinates":[5,6]}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":null}"#,
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":["1","2"]},"properties":{"timestamp":"T","name":"here"}}"#,
        // Something that is not a feature at all.
        #"42"#,
    ]

    /// A document of `count` features drawn from `features`, in one of the ways writers lay JSON out.
    static func document(seed: UInt64, count: Int) -> String {
        var random = SplitMix64(seed: seed)
        let layout = Int(random.next() % 3)
        let separator = [",", ", ", ",\n  "][layout]
        var items: [String] = []
        for index in 0..<count {
            let variant = random.next() % 3 == 0 ? Int(random.next() % UInt64(features.count)) : Int(random.next() % 3)
            let time = "2024-03-01T\(String(format: "%02d:%02d:%02d", index / 3600 % 24, index / 60 % 60, index % 60)).5+01:00"
            var item = features[variant].replacingOccurrences(of: "\"T\"", with: "\"\(time)\"")
            if layout == 2 { item = item.replacingOccurrences(of: ",\"properties\"", with: ",\n   \"properties\"") }
            items.append(item)
        }
        let body = items.joined(separator: separator)
        return seed % 2 == 0 ? "{\"locations\":[\(body)]}" : "{\"type\":\"FeatureCollection\",\n\"features\": [\n\(body)\n]}"
    }

    @Test("documents of plain and awkward features read the same with and without it, in any window", arguments: 0..<24)
    func sameRecords(seed: Int) {
        let text = Self.document(seed: UInt64(seed), count: 60)
        let reference = Self.read(text, fast: false)
        #expect(reference.error == nil, "the documents are well-formed")
        #expect(reference.records.count > 40)
        for (blockSize, chunk) in [(1 << 20, Int.max), (256, 7), (64, 1000), (4096, 333)] {
            let fast = Self.read(text, fast: true, blockSizeBytes: blockSize, chunk: chunk)
            #expect(fast == reference, "window \(blockSize), chunks of \(chunk): \(fast) against \(reference)")
            if blockSize > 256 { #expect(fast.readFast > 20, "the fast path read \(fast.readFast) features") }
        }
        #expect(reference.readFast == 0)
        #expect(Self.read(text, fast: true, pointFeaturesOnly: true) == Self.read(text, fast: false, pointFeaturesOnly: true))
    }

    @Test("a document that breaks off or goes wrong after plain features fails at the same byte either way")
    func sameErrors() {
        let text = Self.document(seed: 4, count: 20)
        var cases: [String] = []
        for cut in stride(from: text.utf8.count - 1, to: text.utf8.count / 2, by: -37) {
            cases.append(String(decoding: Array(text.utf8).prefix(cut), as: UTF8.self))
        }
        let broken = [
            "{\"locations\":[" + Self.features[0].replacingOccurrences(of: "\"T\"", with: "\"2024-03-01T00:00:00Z\"") + ",]}",
            "{\"locations\":[" + Self.features[0].replacingOccurrences(of: "\"T\"", with: "\"2024-03-01T00:00:00Z\"") + " {}]}",
            "{\"locations\":[" + Self.features[0].replacingOccurrences(of: "\"T\"", with: "\"2024-03-01T00:00:00Z\"")
                .replacingOccurrences(of: "1.77", with: "01.77") + "]}",
            "{\"locations\":[" + Self.features[0].replacingOccurrences(of: "\"T\"", with: "\"2024-03-01T00:00:00Z\"")
                .replacingOccurrences(of: "\"wifi\":\"\"", with: "\"wifi\":\"\u{01}\"") + "]}",
            "{\"locations\":[" + Self.features[0].replacingOccurrences(of: "\"T\"", with: "\"2024-03-01T00:00:00Z\"")
                .replacingOccurrences(of: "false", with: "fals") + "]}",
        ]
        for text in cases + broken {
            let reference = Self.read(text, fast: false)
            #expect(reference.error != nil)
            #expect(Self.read(text, fast: true) == reference, "\(text.suffix(80))")
            #expect(Self.read(text, fast: true, blockSizeBytes: 128, chunk: 50) == reference, "\(text.suffix(80))")
        }
    }

    @Test("a feature nested deeper than the parser allows is refused either way")
    func depthLimit() {
        let text = #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"timestamp":"2024-03-01T00:00:00Z","x":[[[1]]]}}]}"#
        for depth in 3...7 {
            let options = JSONParser.Options(maximumDepth: depth)
            func read(fast: Bool) -> Outcome {
                let reader = GeoJSONReader(source: MemoryByteSource(Array(text.utf8)), options: options, readsPlainPointsFast: fast)
                var outcome = Outcome()
                do {
                    while let record = try reader.next() { outcome.records.append(record) }
                } catch {
                    outcome.error = error
                }
                return outcome
            }
            #expect(read(fast: true) == read(fast: false), "depth \(depth)")
        }
    }

    @Test("the Overland and GeoJSON files of other projects read the same either way",
          .enabled(if: SharedFixtures.available, SharedFixtures.absentReason), arguments: [
        "dawarich/geojson/export.json", "dawarich/geojson/gpslogger_example.json", "dawarich/overland/geodata.json",
        "overland/readme_example.json", "gpsbabel/geojson/geojson.geojson", "gpsbabel/export/segmented_tracks.expected.geojson",
    ])
    func sharedFiles(path: String) throws {
        let text = try String(contentsOf: SharedFixtures.url(path), encoding: .utf8)
        let reference = Self.read(text, fast: false)
        #expect(reference.error == nil && !reference.records.isEmpty)
        #expect(Self.read(text, fast: true) == reference)
    }
}
