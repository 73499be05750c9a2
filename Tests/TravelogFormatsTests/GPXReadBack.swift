import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A point as a GPX file (ours, or GPSBabel's GPX 1.0) gives it back.
struct ReadBackPoint {
    var latitude: Double
    var longitude: Double
    var elevation: Double?
    var time: String?
    var speed: Double?
    var course: Double?
}

/// A `trk` read back: its name and its segments.
struct ReadBackTrack {
    var name: String?
    var segments: [[ReadBackPoint]] = []
}

/// Reads the tracks and waypoints of a GPX 1.0 or 1.1 file with Foundation's XMLParser, to check
/// what the writers produce and what GPSBabel makes of it.
final class GPXReadBack: NSObject, XMLParserDelegate {
    private(set) var metadataName: String?
    private(set) var tracks: [ReadBackTrack] = []
    private(set) var waypoints: [ReadBackPoint] = []
    private var point: ReadBackPoint?
    private var path: [String] = []
    private var text = ""

    /// Parses `data`. - Throws: `ExportTestFailure.unreadable` when it is not well-formed XML.
    static func parse(_ data: Data) throws -> GPXReadBack {
        let reader = GPXReadBack()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            throw ExportTestFailure.unreadable(parser.parserError.map { "\($0)" } ?? "not well-formed")
        }
        return reader
    }

    /// Whether `data` is well-formed XML.
    static func isWellFormed(_ data: Data) -> Bool { XMLParser(data: data).parse() }

    var trackPoints: [ReadBackPoint] { tracks.flatMap { $0.segments.flatMap { $0 } } }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        path.append(name)
        text = ""
        switch name {
        case "trk": tracks.append(ReadBackTrack())
        case "trkseg": tracks[tracks.count - 1].segments.append([])
        case "trkpt", "wpt":
            point = ReadBackPoint(latitude: Double(attributes["lat"] ?? "") ?? .nan,
                                  longitude: Double(attributes["lon"] ?? "") ?? .nan)
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        path.removeLast()
        let parent = path.last
        switch name {
        case "ele": point?.elevation = Double(text)
        case "time" where point != nil: point?.time = text
        case "speed", "gpxtpx:speed": point?.speed = Double(text)
        case "course", "gpxtpx:course": point?.course = Double(text)
        case "name" where parent == "trk": tracks[tracks.count - 1].name = text
        case "name" where parent == "metadata": metadataName = text
        case "trkpt":
            if let point { tracks[tracks.count - 1].segments[tracks[tracks.count - 1].segments.count - 1].append(point) }
            point = nil
        case "wpt":
            if let point { waypoints.append(point) }
            point = nil
        default: break
        }
    }
}
