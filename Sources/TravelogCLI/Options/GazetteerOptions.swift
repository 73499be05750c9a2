import ArgumentParser
import Foundation
import TravelogGeocoding
import TravelogJournal

/// The data files `make` builds that the geocoding and journal commands read: the gazetteer
/// (`--gazetteer PATH`, else `$TRAVELOG_GAZETTEER`) and the time-zone boundaries (`--time-zones PATH`,
/// else `$TRAVELOG_TIME_ZONES`); each else in the data folder of the default database, else in
/// `.build-data/` of the current folder (a source checkout).
struct GazetteerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The gazetteer file (built by `make gazetteer`).",
        discussion: "Default: $TRAVELOG_GAZETTEER, else gazetteer.tlgaz beside the default database ($XDG_DATA_HOME/travelog/), else .build-data/gazetteer.tlgaz in the current folder.",
        valueName: "path"))
    var gazetteer: String?

    @Option(name: .customLong("time-zones"), help: ArgumentHelp(
        "The time-zone boundaries file (built by `make timezones`), for local days.",
        discussion: "Default: $TRAVELOG_TIME_ZONES, else timezones.tlzones beside the default database, else .build-data/timezones.tlzones in the current folder. Without it a place's zone is the nearest gazetteer place's.",
        valueName: "path"))
    var timeZones: String?

    /// The gazetteer paths to try, in order: only the given one when the option or the variable is set.
    static func candidatePaths(option: String?, environment: [String: String]) -> [String] {
        candidatePaths(option: option, variable: "TRAVELOG_GAZETTEER", fileName: Gazetteer.defaultFileName, environment: environment)
    }

    /// The paths to try for a data file, in order: only the given one when the option or the
    /// variable is set, else the file in the default database's folder, then in `.build-data/`.
    static func candidatePaths(option: String?, variable: String, fileName: String, environment: [String: String]) -> [String] {
        if let option, !option.isEmpty { return [option] }
        if let path = environment[variable], !path.isEmpty { return [path] }
        let databaseFolder = (StoreOptions.resolvePath(option: nil, environment: environment) as NSString).deletingLastPathComponent
        return [databaseFolder + "/" + fileName, ".build-data/" + fileName]
    }

    /// The path to load among the candidates: a path given explicitly is read (and its absence
    /// reported by the loader); a default only when it exists (`nil` when none does).
    static func existingPath(among candidates: [String]) -> String? {
        guard candidates.count > 1 else { return candidates[0] }
        return candidates.first(where: FileManager.default.fileExists(atPath:))
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
            "no gazetteer found (looked for \(searched.joined(separator: " and "))): build it with `make gazetteer`, or pass --gazetteer PATH or set TRAVELOG_GAZETTEER"
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
            note("no time-zone boundaries (`make timezones`): a place's zone is the nearest gazetteer place's")
        } catch {
            note("\(error); a place's zone is the nearest gazetteer place's")
        }
        return nil
    }

    /// The journal's place describer, or `nil` (with a note on standard error) when no gazetteer is
    /// found: the journal then works without place names and local time zones.
    func describer() -> GazetteerDescriber? {
        do {
            return GazetteerDescriber(gazetteer: try load(), timeZones: timeZoneBoundaries())
        } catch {
            FileHandle.standardError.write(Data("note: journal places are not described: \(error)\n".utf8))
            return nil
        }
    }
}
