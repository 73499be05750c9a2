import ArgumentParser
import Foundation
import TravelogTracker
import TravelogTracking

/// `travelog track`: the location service for Linux GPS hardware. Reads gpsd or an NMEA stream
/// through the location manager, queues every kept fix on disk, uploads batches to an Overland
/// receiver (a Travelog server), and optionally records a GPX file.
public struct TrackCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "track",
        abstract: "Record locations from gpsd or an NMEA receiver, queue them on disk and upload them.",
        discussion: """
            With no option it reads gpsd at 127.0.0.1:2947 and keeps every fix. A fix leaves the queue \
            only when the server answered {"result":"ok"}; a full queue drops its oldest fixes with a warning.
            """,
        subcommands: [Run.self, Status.self],
        defaultSubcommand: Run.self)

    public init() {}

    /// The default queue: `$XDG_STATE_HOME/travelog/track-queue.sqlite` (`~/.local/state/…`).
    static func defaultQueuePath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/travelog/track-queue.sqlite"
    }

    struct QueueOption: ParsableArguments {
        @Option(help: ArgumentHelp("The on-disk queue (SQLite). Default: $XDG_STATE_HOME/travelog/track-queue.sqlite.", valueName: "path"))
        var queue: String?
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Track (the default).")

        @Option(help: ArgumentHelp("gpsd's address (default 127.0.0.1:2947).", valueName: "host:port")) var gpsd: String?
        @Option(help: ArgumentHelp("An NMEA source: a serial device, a log file, tcp://HOST:PORT or udp://:PORT.", valueName: "source")) var nmea: String?
        @Option(help: "The serial device's baud rate (default 4800, NMEA's).") var baud: Int?
        @Flag(name: .customLong("real-time"), help: "Replay an NMEA log at its own pace (default: as fast as possible).") var realTime = false
        @Option(help: ArgumentHelp("A Travelog server's URL, or the full URL of any Overland receiver.", valueName: "url")) var server: String?
        @Option(help: ArgumentHelp("The device token to upload with (default $TRAVELOG_TRACK_TOKEN).", valueName: "token")) var token: String?
        @Option(help: ArgumentHelp("Also record the kept fixes to this GPX file.", valueName: "file.gpx")) var output: String?
        @OptionGroup var queueOption: QueueOption
        @Option(name: .customLong("queue-capacity"), help: "Fixes the queue holds at most; beyond, the oldest are dropped (default 1000000).") var queueCapacity: Int?
        @Option(name: .customLong("batch-size"), help: "Fixes per upload (default 200).") var batchSize: Int?
        @Option(name: .customLong("upload-interval"), help: ArgumentHelp("Seconds between uploads (default 10).", valueName: "seconds")) var uploadIntervalSeconds: Double?
        @Option(help: ArgumentHelp("A JSON configuration file (keys as the options, snake_case).", valueName: "path")) var config: String?
        @OptionGroup var manager: LocationManagerOptions
        @OptionGroup var model: MagneticModelOptions

        func validate() throws {
            guard gpsd == nil || nmea == nil else { throw ValidationError("give --gpsd or --nmea, not both") }
            if let queueCapacity, queueCapacity < 1 { throw ValidationError("--queue-capacity must be at least 1") }
            if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
        }

        func run() async throws {
            let file = try config.map(TrackerConfigurationFile.load) ?? TrackerConfigurationFile()
            let settings = try self.settings(file)
            let recorder = try (output ?? file.output).map { try GPXRecorder(path: $0) }
            if let recorder { StopSignals.finishOnStop(recorder) }
            let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data("travelog track: \($0)\n".utf8)) }
            log("\(settings.source) → queue \(settings.queuePath)" + (settings.server.map { " → \($0.absoluteString)" } ?? "")
                + (recorder.map { " and \($0.path)" } ?? ""))
            try await TrackerRunner(settings: settings, log: log).run(recorder: recorder)
        }

        func settings(_ file: TrackerConfigurationFile) throws -> TrackerSettings {
            let source: GPSSource
            if let nmeaText = nmea ?? (gpsd == nil ? file.nmea : nil) {
                guard let parsed = GPSSource.nmea(nmeaText, baudRate: baud ?? file.baud ?? 4800, realTime: realTime || (file.realTime ?? false)) else {
                    throw TrackCommandError.invalidSource(nmeaText)
                }
                source = parsed
            } else {
                let text = gpsd ?? file.gpsd ?? "127.0.0.1:\(GPSSource.gpsdDefaultPort)"
                guard let address = GPSSource.hostAndPort(text, defaultPort: GPSSource.gpsdDefaultPort) else {
                    throw TrackCommandError.invalidSource(text)
                }
                source = .gpsd(host: address.0, port: address.1)
            }
            let queuePath = queueOption.queue ?? file.queue ?? TrackCommand.defaultQueuePath()
            try FileManager.default.createDirectory(atPath: (queuePath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var settings = TrackerSettings(source: source, queuePath: queuePath)
            var configuration = LocationManagerConfiguration()
            configuration.desiredAccuracy = manager.desiredAccuracy ?? file.desiredAccuracy ?? .best
            configuration.distanceFilterMeters = manager.distanceFilterMeters ?? file.distanceFilterMeters
            configuration.activityType = manager.activityType ?? file.activityType ?? .other
            configuration.pausesLocationUpdatesAutomatically = manager.pausesAutomatically || (file.pausesAutomatically ?? false)
            configuration.stopWhenAccuracyStallsSeconds = manager.stopWhenAccuracyStallsSeconds ?? file.stopWhenAccuracyStallsSeconds
            configuration.headingFilterDegrees = manager.headingFilterDegrees ?? file.headingFilterDegrees ?? 1
            settings.manager = configuration
            settings.significantChangesOnly = manager.significantChanges || (file.significantChanges ?? false)
            settings.deferMeters = manager.deferMeters ?? file.deferMeters
            settings.deferSeconds = manager.deferSeconds ?? file.deferSeconds
            if settings.deferMeters != nil || settings.deferSeconds != nil {
                guard configuration.distanceFilterMeters == nil, configuration.desiredAccuracy.thresholdMeters == nil else {
                    throw ValidationError("deferred updates need the best accuracy and no distance filter (Core Location's deferredDistanceFiltered and deferredAccuracyTooLow)")
                }
            }
            if let serverText = server ?? file.server {
                guard let url = URL(string: serverText), url.scheme == "http" || url.scheme == "https" else {
                    throw ValidationError("--server must be an http or https URL")
                }
                guard let token = token ?? file.token ?? ProcessInfo.processInfo.environment["TRAVELOG_TRACK_TOKEN"] else {
                    throw TrackCommandError.serverWithoutToken
                }
                settings.server = url
                settings.token = token
            }
            settings.queueCapacity = queueCapacity ?? file.queueCapacity ?? TrackerQueue.defaultCapacity
            settings.batchSize = batchSize ?? file.batchSize ?? 200
            settings.uploadIntervalSeconds = uploadIntervalSeconds ?? file.uploadIntervalSeconds ?? 10
            var modelOptions = model
            if modelOptions.wmm == nil { modelOptions.wmm = file.wmm }
            do {
                settings.magneticModel = try modelOptions.load()
            } catch {
                FileHandle.standardError.write(Data("note: no true heading (magnetic only): \(error)\n".utf8))
            }
            return settings
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the last fix, the queue and the last upload.")

        @OptionGroup var queueOption: QueueOption
        @Flag(help: "Print the status as JSON.") var json = false

        func run() throws {
            let path = queueOption.queue ?? TrackCommand.defaultQueuePath()
            guard FileManager.default.fileExists(atPath: path) else { throw ValidationError("no queue at \(path): has `travelog track` run?") }
            let status = try TrackerQueue(path: path).status()
            if json {
                let encoder = JSONEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(status), as: UTF8.self))
                return
            }
            print(TrackStatusText.render(status))
        }
    }
}
