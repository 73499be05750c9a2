import Foundation
import TravelogPostgres
import TravelogTrackCLI

extension StoreOptions {
    /// Where the photos' thumbnails and uploaded originals are kept: beside a SQLite database
    /// (`travelog.sqlite` → `travelog.sqlite-photos/`), and for PostgreSQL one folder per database and
    /// schema in the data directory (`$XDG_DATA_HOME/travelog/photos/postgres-HOST-PORT-DATABASE[-SCHEMA]/`).
    func photosDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let location = databasePath
        guard PostgresConnectionURL.isPostgresURL(location), let index = historyIndexDirectory(option: nil, environment: environment) else {
            return URL(fileURLWithPath: location + "-photos", isDirectory: true)
        }
        return URL(fileURLWithPath: DefaultDatabasePath.dataDirectory(environment: environment), isDirectory: true)
            .appendingPathComponent("photos", isDirectory: true).appendingPathComponent(index.lastPathComponent, isDirectory: true)
    }
}
