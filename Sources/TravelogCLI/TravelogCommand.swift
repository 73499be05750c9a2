import ArgumentParser
import TravelogTrackCLI

/// The root of the `travelog` command line. Subcommands are thin: they parse, call the modules,
/// and print for people (or `--json` for scripts).
public struct TravelogCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "travelog",
        abstract: "Self-hosted location history: geodesy, map geometry, import, a server and a journal.",
        subcommands: [ServeCommand.self, UserCommand.self, DeviceCommand.self, ImportCommand.self, ImportsCommand.self, ExportCommand.self,
                      StatsCommand.self, ExploreCommand.self, ReviewCommand.self, VisitsCommand.self, TripsCommand.self, PlacesCommand.self, InfoCommand.self,
                      GeodesicCommand.self, GeocodeCommand.self, DeclinationCommand.self, TrackCommand.self, NotifyCommand.self,
                      RejectedCommand.self, SnapshotCommand.self, RegionsCommand.self, BeaconsCommand.self, MigrateCommand.self,
                      BackupCommand.self, RestoreCommand.self, OSMCommand.self, DirectionsCommand.self, MatchCommand.self, PhotosCommand.self,
                      SearchCommand.self, ShareCommand.self, ZonesCommand.self, RetentionCommand.self, FriendsCommand.self,
                      LabelsCommand.self, MQTTCommand.self]
    )

    public init() {}
}
