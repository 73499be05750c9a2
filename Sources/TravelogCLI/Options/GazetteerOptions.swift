import ArgumentParser
import Foundation
import TravelogGeocoding
import TravelogJournal

/// Which gazetteer the geocoding commands read: `--gazetteer PATH`, else `$TRAVELOG_GAZETTEER`,
/// else `gazetteer.tlgaz` in the data folder of the default database, else the file that
/// `make gazetteer` builds in `.build-data/` of the current folder (a source checkout).
struct GazetteerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The gazetteer file (built by `make gazetteer`).",
        discussion: "Default: $TRAVELOG_GAZETTEER, else gazetteer.tlgaz beside the default database ($XDG_DATA_HOME/travelog/), else .build-data/gazetteer.tlgaz in the current folder.",
        valueName: "path"))
    var gazetteer: String?

    /// The paths to try, in order: only the given one when the option or the variable is set.
    static func candidatePaths(option: String?, environment: [String: String]) -> [String] {
        if let option, !option.isEmpty { return [option] }
        if let path = environment["TRAVELOG_GAZETTEER"], !path.isEmpty { return [path] }
        let databaseFolder = (StoreOptions.resolvePath(option: nil, environment: environment) as NSString).deletingLastPathComponent
        return [databaseFolder + "/" + Gazetteer.defaultFileName, ".build-data/" + Gazetteer.defaultFileName]
    }

    /// Loads the first gazetteer that exists among the candidates.
    /// - Throws: `GazetteerError` (for a file named by the option or the variable, or a corrupt
    ///   one), or `GeocodeCommandError.noGazetteer` listing the defaults tried.
    func load() throws -> Gazetteer {
        let candidates = Self.candidatePaths(option: gazetteer, environment: ProcessInfo.processInfo.environment)
        // A path given explicitly is read (and its absence reported); a default only when it exists.
        guard candidates.count > 1 else { return try Gazetteer(contentsOfFile: candidates[0]) }
        guard let path = candidates.first(where: FileManager.default.fileExists(atPath:)) else {
            throw GeocodeCommandError.noGazetteer(searched: candidates)
        }
        return try Gazetteer(contentsOfFile: path)
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
    /// The journal's place describer, or `nil` (with a note on standard error) when no gazetteer is
    /// found: the journal then works without place names and local time zones.
    func describer() -> GazetteerDescriber? {
        do {
            return GazetteerDescriber(gazetteer: try load())
        } catch {
            FileHandle.standardError.write(Data("note: journal places are not described: \(error)\n".utf8))
            return nil
        }
    }
}
