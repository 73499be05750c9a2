import ArgumentParser
import Foundation
import TravelogGeocoding
import TravelogJournal
import TravelogTrackCLI

/// The data files `make` builds that the geocoding and journal commands read: the gazetteer
/// (`--gazetteer PATH`, else `$TRAVELOG_GAZETTEER`) and the time-zone boundaries (`--time-zones PATH`,
/// else `$TRAVELOG_TIME_ZONES`); each else where `DataFiles` looks (beside the default database, the
/// installed `share/travelog`, `.build-data/` of a source checkout).
struct GazetteerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The gazetteer file (built by `make gazetteer`).",
        discussion: "Default: $TRAVELOG_GAZETTEER, else gazetteer.tlgaz beside the default database ($XDG_DATA_HOME/travelog/), else in PREFIX/share/travelog (make install), else .build-data/gazetteer.tlgaz in the current folder.",
        valueName: "path"))
    var gazetteer: String?

    @Option(name: .customLong("time-zones"), help: ArgumentHelp(
        "The time-zone boundaries file (built by `make timezones`), for local days.",
        discussion: "Default: $TRAVELOG_TIME_ZONES, else timezones.tlzones beside the default database, else in PREFIX/share/travelog (make install), else .build-data/timezones.tlzones in the current folder. Without it a place's zone is the nearest gazetteer place's.",
        valueName: "path"))
    var timeZones: String?

    /// The gazetteer paths to try, in order: only the given one when the option or the variable is set.
    static func candidatePaths(option: String?, environment: [String: String]) -> [String] {
        candidatePaths(option: option, variable: "TRAVELOG_GAZETTEER", fileName: Gazetteer.defaultFileName, environment: environment)
    }

    /// The paths to try for a data file, in order: only the given one when the option or the
    /// variable is set, else the file in the default database's folder, then in `.build-data/`.
    static func candidatePaths(option: String?, variable: String, fileName: String, environment: [String: String]) -> [String] {
        DataFiles.candidates(fileName: fileName, option: option, variable: variable, environment: environment)
    }

    /// The path to load among the candidates: a path given explicitly is read (and its absence
    /// reported by the loader); a default only when it exists (`nil` when none does).
    static func existingPath(among candidates: [String]) -> String? {
        DataFiles.existing(among: candidates)
    }

    /// Loads the first gazetteer that exists among the candidates.
    /// - Throws: `GazetteerError` (for a file named by the option or the variable, or a corrupt
    ///   one), or `GeocodeCommandError.noGazetteer` listing the defaults tried.
    func load() throws -> Gazetteer {
        let candidates = Self.candidatePaths(option: gazetteer, environment: ProcessInfo.processInfo.environment)
        guard let path = Self.existingPath(among: candidates) else { throw GeocodeCommandError.noGazetteer(searched: candidates) }
        return try Gazetteer(contentsOfFile: path)
    }

    /// Loads the time-zone boundaries, `nil` when no default file exists.
    /// - Throws: `TimeZoneBoundariesError` for a file named by the option or the variable, or a corrupt one.
    func loadTimeZones() throws -> TimeZoneBoundaries? {
        let candidates = Self.candidatePaths(option: timeZones, variable: "TRAVELOG_TIME_ZONES",
                                             fileName: TimeZoneBoundaries.defaultFileName,
                                             environment: ProcessInfo.processInfo.environment)
        return try Self.existingPath(among: candidates).map { path throws(TimeZoneBoundariesError) in
            try TimeZoneBoundaries(contentsOfFile: path)
        }
    }
}

/// Why a geocoding command could not run.
enum GeocodeCommandError: Error, Equatable, CustomStringConvertible {
    /// None of the default gazetteer paths holds a file.
    case noGazetteer(searched: [String])

    var description: String {
        switch self {
        case .noGazetteer(let searched):
            DataFiles.missing("gazetteer", makeTarget: "gazetteer", variable: "TRAVELOG_GAZETTEER", searched: searched) + " (or pass --gazetteer PATH)"
        }
    }
}

extension GazetteerOptions {
    /// The time-zone boundaries, or `nil` (with a note, on standard error unless `note` says
    /// otherwise) when none are found or they cannot be read: a place's zone is then the nearest
    /// gazetteer place's.
    func timeZoneBoundaries(note: (String) -> Void = { FileHandle.standardError.write(Data("note: \($0)\n".utf8)) }) -> TimeZoneBoundaries? {
        do {
            if let boundaries = try loadTimeZones() { return boundaries }
            let searched = Self.candidatePaths(option: timeZones, variable: "TRAVELOG_TIME_ZONES", fileName: TimeZoneBoundaries.defaultFileName,
                                               environment: ProcessInfo.processInfo.environment)
            note(DataFiles.missing("time-zone boundaries", makeTarget: "timezones", variable: "TRAVELOG_TIME_ZONES", searched: searched)
                 + "; a place's zone is the nearest gazetteer place's")
        } catch {
            note("\(error); a place's zone is the nearest gazetteer place's")
        }
        return nil
    }

    /// The journal's place describer, or `nil` (with a note on standard error) when no gazetteer is
    /// found: the journal then works without place names and local time zones. It names points of
    /// interest and addresses from the OSM extracts of `osmFolder` (else `$TRAVELOG_OSM_DIR`, else
    /// the default folder), when any is added.
    func describer(osmFolder: String? = nil) -> GazetteerDescriber? {
        let gazetteer: Gazetteer
        do {
            gazetteer = try load()
        } catch {
            FileHandle.standardError.write(Data(("note: journal entries are not described (they are titled with their coordinates "
                + "until a gazetteer is found, then described by the next import, `travelog visits describe` or the server): \(error)\n").utf8))
            return nil
        }
        var streetLevel: OSMReverseGeocoder?
        do {
            streetLevel = try OSMCommand.streetLevelGeocoder(folder: osmFolder)
        } catch {
            FileHandle.standardError.write(Data("note: journal entries are described without OSM extracts: \(error)\n".utf8))
        }
        return GazetteerDescriber(gazetteer: gazetteer, timeZones: timeZoneBoundaries(), streetLevel: streetLevel)
    }
}

extension GazetteerOptions {
    /// The offline world base (`make world`): `option`, else `$TRAVELOG_WORLD`, else where `DataFiles`
    /// looks; `nil` when no default exists.
    static func worldBasePath(option: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        DataFiles.existing(among: DataFiles.candidates(fileName: "world.tlworld", option: option, variable: "TRAVELOG_WORLD",
                                                       environment: environment))
    }

    /// The sentence for a missing world base.
    static func missingWorldBase(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        DataFiles.missing("world base", makeTarget: "world", variable: "TRAVELOG_WORLD",
                          searched: DataFiles.candidates(fileName: "world.tlworld", option: nil, variable: "TRAVELOG_WORLD", environment: environment))
            + "; maps are drawn without country outlines"
    }
}
