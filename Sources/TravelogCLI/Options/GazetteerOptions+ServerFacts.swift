import Foundation
import TravelogGeocoding
import TravelogServer
import TravelogTrackCLI

extension GazetteerOptions {
    /// The data files the server uses, where `DataFiles` finds them (nil when missing), for the
    /// administrator's view: the gazetteer, the time zones, the world base, the magnetic model.
    func serverDataFiles(environment: [String: String] = ProcessInfo.processInfo.environment) -> [ServerFacts.DataFile] {
        let found = { (fileName: String, option: String?, variable: String) in
            DataFiles.existing(among: DataFiles.candidates(fileName: fileName, option: option, variable: variable, environment: environment))
        }
        return [
            ServerFacts.DataFile(name: "gazetteer", path: found(Gazetteer.defaultFileName, gazetteer, "TRAVELOG_GAZETTEER"),
                                 makeTarget: "gazetteer"),
            ServerFacts.DataFile(name: "time zones", path: found(TimeZoneBoundaries.defaultFileName, timeZones, "TRAVELOG_TIME_ZONES"),
                                 makeTarget: "timezones"),
            ServerFacts.DataFile(name: "world base", path: Self.worldBasePath(environment: environment), makeTarget: "world"),
            ServerFacts.DataFile(name: "World Magnetic Model",
                                 path: DataFiles.existing(among: MagneticModelOptions.candidatePaths(option: nil, environment: environment)),
                                 makeTarget: "wmm"),
        ]
    }
}
