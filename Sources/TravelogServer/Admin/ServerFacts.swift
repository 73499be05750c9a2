import Foundation

/// What the administrator's view says about the running server beyond its routes: its version,
/// its database and the data files `travelog serve` found (`ServeCommand` fills it in; a test
/// server has none).
public struct ServerFacts: Sendable {
    /// Travelog's version, as the administrator's view shows it.
    public static let travelogVersion = "0.27.0-dev"

    /// One data file the server looks for: what it is, where it was found (nil: not found) and the
    /// `make` target that builds it.
    public struct DataFile: Sendable, Equatable {
        public var name: String
        public var path: String?
        public var makeTarget: String

        public init(name: String, path: String?, makeTarget: String) {
            self.name = name
            self.path = path
            self.makeTarget = makeTarget
        }
    }

    /// `sqlite` or `postgresql`, or `memory` for a test store.
    public var databaseKind: String
    /// The database as the log says it (a file path, or a PostgreSQL address without its password).
    public var databaseDescription: String
    public var dataFiles: [DataFile]

    public init(databaseKind: String = "memory", databaseDescription: String = "in memory", dataFiles: [DataFile] = []) {
        self.databaseKind = databaseKind
        self.databaseDescription = databaseDescription
        self.dataFiles = dataFiles
    }
}
