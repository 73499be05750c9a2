/// Where a stored location came from.
public enum LocationSource: String, Hashable, Sendable, CaseIterable, Codable {
    /// A file imported with `travelog import` or the import API.
    case fileImport = "import"
    case owntracks
    case overland
    case osmand
    case traccar
    case gpslogger
    /// The generic JSON/GeoJSON ingest API.
    case api
    /// Entered by hand ("Log my current location").
    case manual
    /// `travelog track` on Linux GPS hardware.
    case tracker
}
