import Foundation
import TravelogCore
import TravelogFormats

/// A fix as the GeoJSON feature an Overland batch carries, written by Travelog's own GeoJSON
/// export encoder (so the tracker has no JSON encoding of its own): `[lon, lat(, alt)]` and the
/// properties `timestamp`, `altitude`, `accuracy`, `vertical_accuracy`, `speed`, `course`.
public enum OverlandFeature {
    /// The feature of one fix, as one line of JSON.
    public static func encode(_ location: Location) throws -> String {
        let sink = MemoryByteSink()
        guard let writer = FileFormat.geojson.makeWriter(sink: sink) else { preconditionFailure("GeoJSON is writable") }
        try writer.begin()
        try writer.startTrack(named: nil)
        try writer.startSegment()
        try writer.write([location])
        try writer.finish()
        // The writer puts each feature on a line of its own between the collection's header and footer.
        guard let line = sink.text.split(separator: "\n").first(where: { $0.hasPrefix("{\"type\":\"Feature\"") }) else {
            preconditionFailure("the GeoJSON encoder wrote no feature line")
        }
        return String(line)
    }

    /// The body of an Overland `POST`: `{"locations":[feature,…]}`.
    public static func body(_ features: [String]) -> [UInt8] {
        var bytes = Array("{\"locations\":[".utf8)
        bytes.reserveCapacity(bytes.count + features.reduce(2) { $0 + $1.utf8.count + 1 })
        for (index, feature) in features.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: feature.utf8)
        }
        bytes.append(contentsOf: "]}".utf8)
        return bytes
    }
}
