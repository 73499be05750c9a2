import ArgumentParser
import Foundation
import TravelogTracking

/// Which World Magnetic Model coefficients a command reads: `--wmm PATH`, else `$TRAVELOG_WMM`,
/// else `WMM2025.COF` in the data folder of the default database, else the file `make wmm`
/// builds in `.build-data/` of the current folder (a source checkout).
public struct MagneticModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The WMM2025 coefficient file (built by `make wmm`).",
        discussion: "Default: $TRAVELOG_WMM, else WMM2025.COF beside the default database ($XDG_DATA_HOME/travelog/), else .build-data/WMM2025.COF in the current folder.",
        valueName: "path"))
    public var wmm: String?

    public init() {}

    /// The paths to try, in order: only the given one when the option or the variable is set.
    public static func candidatePaths(option: String?, environment: [String: String]) -> [String] {
        if let option, !option.isEmpty { return [option] }
        if let path = environment["TRAVELOG_WMM"], !path.isEmpty { return [path] }
        let databaseFolder = (DefaultDatabasePath.resolve(option: nil, environment: environment) as NSString).deletingLastPathComponent
        return [databaseFolder + "/" + WorldMagneticModel.wmm2025FileName, ".build-data/" + WorldMagneticModel.wmm2025FileName]
    }

    /// Loads the first coefficient file that exists among the candidates.
    /// - Throws: `WorldMagneticModelError` naming the file tried last.
    public func load() throws -> WorldMagneticModel {
        let candidates = Self.candidatePaths(option: wmm, environment: ProcessInfo.processInfo.environment)
        let path = candidates.first(where: FileManager.default.fileExists(atPath:)) ?? candidates[candidates.count - 1]
        return try WorldMagneticModel(contentsOfFile: path)
    }
}
