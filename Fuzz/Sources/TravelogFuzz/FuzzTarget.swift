import Foundation
import TravelogCore
import TravelogFormats
import TravelogOSM
import TravelogPhotos

/// The parsers the fuzzer can drive, by the name `TRAVELOG_FUZZ_TARGET` gives. Each reads the
/// input the way the server or `travelog import` does, to the end, and checks what it hands out.
enum FuzzTarget: String, CaseIterable {
    case gpx, kml, geojson, csv, nmea
    case googleRecords = "google-records"
    case googleSemantic = "google-semantic"
    case googleTimeline = "google-timeline"
    case googleTimelineIOS = "google-timeline-ios"
    /// OwnTracks Recorder `.rec` files and the app's HTTP messages (one reader reads both).
    case owntracks
    case geolife, gpsd
    /// OsmAnd and Traccar Client's query or form request (input: `query` NUL `content-type` NUL body).
    case osmandRequest = "osmand-request"
    /// Traccar Client 9's JSON body.
    case traccarJSON = "traccar-json"
    /// GPSLogger's custom URL request (input as for `osmandRequest`).
    case gpsloggerRequest = "gpslogger-request"
    /// The generic API's batch (`POST /api/v1/locations`).
    case locationBatch = "location-batch"
    /// An upload's multipart body (boundary `fuzz`) and the format detector on its parts.
    case multipart
    /// An OpenStreetMap `.osm.pbf` extract, read on one thread and on two (both must agree).
    case osmPBF = "osm-pbf"
    /// A photo's metadata through Exiv2 and `PhotoMetadataReader` (JPEG, TIFF, PNG, WebP, HEIF…), its
    /// embedded preview and whether a JPEG is whole (`PhotoPreview`).
    case exif

    /// At most this many records are read from one input (a reader that never ends is a hang).
    static let maximumRecords = 100_000
    static let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs the parser over `bytes`: file formats twice, once in one block and once in small blocks
    /// so that every token straddles a block boundary; both must give the same records (GeoJSON a
    /// third time without its fast path for Point features, which must give them too).
    func run(_ bytes: [UInt8]) {
        if let format = FileFormat(rawValue: rawValue) {
            let whole = Self.read(format, bytes, chunkBytes: .max)
            let chunkBytes = 1 + bytes.count % 251
            let split = Self.read(format, bytes, chunkBytes: chunkBytes)
            precondition(whole.records == split.records && whole.failed == split.failed,
                         "\(rawValue): blocks of \(chunkBytes) bytes give other records than one block")
            if format == .geojson {
                // The fast path for plain Point features must read what the event-by-event reading does.
                let reference = Self.drain(GeoJSONReader(source: MemoryByteSource(bytes), readsPlainPointsFast: false))
                precondition(whole.records == reference.records && whole.failed == reference.failed,
                             "geojson: the fast path for Point features gives other records than the event-by-event reading")
            }
            return
        }
        switch self {
        case .osmandRequest:
            let (query, contentType, body) = Self.request(bytes)
            Self.check(try? OsmAndRequestDecoder.osmAnd.decode(query: query, contentType: contentType, body: body,
                                                                receivedAt: Self.receivedAt))
        case .traccarJSON:
            Self.check(try? OsmAndRequestDecoder.traccarClient.decode(jsonBody: bytes, receivedAt: Self.receivedAt))
        case .gpsloggerRequest:
            let (query, contentType, body) = Self.request(bytes)
            Self.check(try? GPSLoggerRequestDecoder.decode(query: query, contentType: contentType, body: body,
                                                           receivedAt: Self.receivedAt))
        case .locationBatch:
            _ = Self.drain(LocationBatchReader(source: MemoryByteSource(bytes), receivedAt: Self.receivedAt))
        case .multipart:
            Self.readParts(bytes)
        case .osmPBF:
            let one = Self.readExtract(bytes, threads: 1)
            let two = Self.readExtract(bytes, threads: 2)
            precondition(one.nodes == two.nodes && one.ways == two.ways && one.relations == two.relations && one.error == two.error,
                         "osm-pbf: two threads read other objects or another error than one")
        case .exif:
            let data = Data(bytes)
            let first = try? PhotoMetadataReader.read(data: data, path: "fuzz")
            precondition(first == (try? PhotoMetadataReader.read(data: data, path: "fuzz")), "exif: two readings differ")
            if let first {
                if let position = first.position {
                    precondition((-90...90).contains(position.coordinate.latitude) && position.coordinate.longitude.isFinite,
                                 "exif: a position off the globe")
                    precondition(position.altitudeMeters?.isFinite ?? true, "exif: an altitude that is not finite")
                }
                precondition(first.orientation.map { (1...8).contains($0) } ?? true, "exif: orientation \(String(describing: first.orientation))")
                precondition(first.captureTime.map { $0.clockSecondsSince1970.isFinite } ?? true, "exif: a capture time that is not finite")
            }
            // The embedded preview (Exiv2's PreviewManager) and the whole-file check `photos add` relies on.
            if let preview = PhotoPreview.read(data, minLongSide: 256) {
                precondition(preview.width > 0 && preview.height > 0 && !preview.jpeg.isEmpty, "exif: a preview without size or bytes")
            }
            if PhotoPreview.jpegIsWhole(data) {
                precondition(data.starts(with: [0xFF, 0xD8]) && data.count >= 4, "exif: whole, yet no start of image")
            }
        default:
            preconditionFailure("\(rawValue) is a file format")
        }
    }

    private static func read(_ format: FileFormat, _ bytes: [UInt8], chunkBytes: Int) -> (records: [FormatRecord], failed: Bool) {
        let source = MemoryByteSource(bytes, maximumChunkBytes: chunkBytes)
        guard let reader = try? format.makeReader(source: source) else { return ([], true) }
        return drain(reader)
    }

    /// Reads records until the end or the first `FormatError`, checking each. The reader is taken,
    /// not copied: a copy of a value-type reader would copy its block on the first read.
    private static func drain(_ reader: consuming any LocationFileReader) -> (records: [FormatRecord], failed: Bool) {
        var records: [FormatRecord] = []
        while records.count < maximumRecords {
            let record: FormatRecord?
            do {
                record = try reader.next()
            } catch {
                return (records, true)
            }
            guard let record else { break }
            records.append(record)
            switch record {
            case .point(let point):
                check(point.position.coordinate)
                if let location = point.position.location { check(location) }
            case .visit, .rejected:
                break
            }
        }
        _ = reader.skippedRecords
        return (records, false)
    }

    private static func readExtract(_ bytes: [UInt8], threads: Int) -> (nodes: [OSMNode], ways: [OSMWay], relations: [OSMRelation], error: OSMPBFError?) {
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        do {
            try OSMPBFReader(threads: threads).read(bytes: bytes) { block in
                nodes += block.nodes
                ways += block.ways
                relations += block.relations
            }
        } catch let error as OSMPBFError {
            return (nodes, ways, relations, error)
        } catch {
            preconditionFailure("osm-pbf: \(error) is not an OSMPBFError")
        }
        for node in nodes {
            precondition(abs(node.latitude) <= 90 && abs(node.longitude) <= 180, "osm-pbf: node \(node.id) out of range")
        }
        return (nodes, ways, relations, nil)
    }

    private static func readParts(_ bytes: [UInt8]) {
        let source = MemoryByteSource(bytes, maximumChunkBytes: 1 + bytes.count % 251)
        guard let reader = try? MultipartFormReader(source: source, boundary: "fuzz", blockBytes: 256) else { return }
        var parts = 0
        while parts < 64, var part = try? reader.nextPart() {
            parts += 1
            var prefix = [UInt8](repeating: 0, count: 4096)
            let count = prefix.withUnsafeMutableBytes { buffer in (try? part.content.read(into: buffer)) ?? 0 }
            _ = FormatDetector.detect(prefix: Array(prefix.prefix(count)))
        }
    }

    /// Splits a request input into query, `Content-Type` (absent when empty) and body at its first two NULs.
    private static func request(_ bytes: [UInt8]) -> (String, String?, ArraySlice<UInt8>) {
        let fields = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let query = String(decoding: fields.first ?? [], as: UTF8.self)
        let contentType = fields.count > 1 && !fields[1].isEmpty ? String(decoding: fields[1], as: UTF8.self) : nil
        return (query, contentType, fields.count > 2 ? fields[2] : [])
    }

    private static func check(_ ingested: IngestedLocation?) {
        guard let ingested else { return }
        precondition(!ingested.deviceIdentifier.isEmpty, "an ingested location without a device")
        check(ingested.location)
    }

    private static func check(_ location: Location) {
        check(location.coordinate)
        precondition(location.timestamp.timeIntervalSince1970.isFinite, "a location at no finite time")
    }

    private static func check(_ coordinate: Coordinate) {
        precondition((-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude),
                     "a coordinate out of range: \(coordinate)")
    }
}
