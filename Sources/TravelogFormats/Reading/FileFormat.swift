/// The location-history file formats Travelog reads.
public enum FileFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case gpx
    case kml
    /// RFC 7946 GeoJSON, including Overland batches (`{"locations": [Feature…]}`).
    case geojson
    /// GPSLogger's CSV and generic files whose header names latitude, longitude and time columns.
    case csv
    /// NMEA 0183 sentences, one per line.
    case nmea
    /// Google Takeout `Records.json`.
    case googleRecords = "google-records"
    /// Google Takeout Semantic Location History (`2019_JANUARY.json`: `timelineObjects`).
    case googleSemantic = "google-semantic"
    /// Android on-device Timeline export (`Timeline.json`: `semanticSegments`, `rawSignals`).
    case googleTimeline = "google-timeline"
    /// iOS on-device Timeline export (`location-history.json`: a top-level array of segments).
    case googleTimelineIOS = "google-timeline-ios"
    /// OwnTracks Recorder `.rec` files (and OwnTracks JSON messages one per line).
    case owntracks
    /// GeoLife trajectories (`.plt`).
    case geolife
    /// gpsd's JSON reports as `gpspipe -w` records them (TPV fixes).
    case gpsd

    public var description: String { rawValue }

    /// What people call it, for messages.
    public var displayName: String {
        switch self {
        case .gpx: "GPX"
        case .kml: "KML"
        case .geojson: "GeoJSON"
        case .csv: "CSV"
        case .nmea: "NMEA 0183"
        case .googleRecords: "Google Records.json"
        case .googleSemantic: "Google Semantic Location History"
        case .googleTimeline: "Google Timeline (Android)"
        case .googleTimelineIOS: "Google Timeline (iOS)"
        case .owntracks: "OwnTracks"
        case .geolife: "GeoLife PLT"
        case .gpsd: "gpsd JSON"
        }
    }
}
