import Foundation
import TravelogTracking

/// `travelog track --config FILE`: the same settings as the options, in JSON, for a service
/// (`docs/travelog-track.service`). Keys: `gpsd`, `nmea`, `baud`, `real_time`, `server`, `token`,
/// `output`, `queue`, `queue_capacity`, `batch_size`, `upload_interval_seconds`, `desired_accuracy`,
/// `distance_filter_meters`, `activity_type`, `pauses_automatically`,
/// `stop_when_accuracy_stalls_seconds`, `heading_filter_degrees`, `significant_changes`,
/// `defer_meters`, `defer_seconds`, `wmm`. An option on the command line wins over the file.
struct TrackerConfigurationFile: Decodable {
    var gpsd: String?
    var nmea: String?
    var baud: Int?
    var realTime: Bool?
    var server: String?
    var token: String?
    var output: String?
    var queue: String?
    var queueCapacity: Int?
    var batchSize: Int?
    var uploadIntervalSeconds: Double?
    var desiredAccuracy: DesiredAccuracy?
    var distanceFilterMeters: Double?
    var activityType: ActivityType?
    var pausesAutomatically: Bool?
    var stopWhenAccuracyStallsSeconds: Double?
    var headingFilterDegrees: Double?
    var significantChanges: Bool?
    var deferMeters: Double?
    var deferSeconds: Double?
    var wmm: String?

    /// Reads the file. - Throws: a message naming the file and what is wrong.
    static func load(path: String) throws -> TrackerConfigurationFile {
        guard let data = FileManager.default.contents(atPath: path) else { throw TrackCommandError.unreadableConfiguration(path) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(TrackerConfigurationFile.self, from: data)
        } catch {
            throw TrackCommandError.invalidConfiguration(path, "\(error)")
        }
    }
}

/// Why `travelog track` could not start.
enum TrackCommandError: Error, CustomStringConvertible {
    case unreadableConfiguration(String)
    case invalidConfiguration(String, String)
    case invalidSource(String)
    case serverWithoutToken

    var description: String {
        switch self {
        case .unreadableConfiguration(let path): "cannot read the configuration file \(path)"
        case .invalidConfiguration(let path, let reason): "the configuration file \(path) is not valid: \(reason)"
        case .invalidSource(let text): "not a source: \(text) (--gpsd HOST:PORT, or --nmea DEVICE, FILE, tcp://HOST:PORT or udp://:PORT)"
        case .serverWithoutToken: "--server needs --token (a device token: `travelog device add --json`), or $TRAVELOG_TRACK_TOKEN"
        }
    }
}
