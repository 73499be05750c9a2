import ArgumentParser
import Foundation
import TravelogTracking

/// Which World Magnetic Model coefficients a command reads: `--wmm PATH`, else `$TRAVELOG_WMM`,
/// else `WMM2025.COF` where `DataFiles` looks (beside the default database, the installed
/// `share/travelog`, `.build-data/` of a source checkout).
public struct MagneticModelOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The WMM2025 coefficient file (built by `make wmm`).",
        discussion: "Default: $TRAVELOG_WMM, else WMM2025.COF beside the default database ($XDG_DATA_HOME/travelog/), else in PREFIX/share/travelog (make install), else .build-data/WMM2025.COF in the current folder.",
        valueName: "path"))
    public var wmm: String?

    public init() {}

    /// The paths to try, in order: only the given one when the option or the variable is set.
    public static func candidatePaths(option: String?, environment: [String: String]) -> [String] {
        DataFiles.candidates(fileName: WorldMagneticModel.wmm2025FileName, option: option, variable: "TRAVELOG_WMM", environment: environment)
    }

    /// Loads the first coefficient file that exists among the candidates.
    /// - Throws: `MagneticModelFileMissing` when no default place holds the file, or
    ///   `WorldMagneticModelError` for the file read.
    public func load() throws -> WorldMagneticModel {
        let candidates = Self.candidatePaths(option: wmm, environment: ProcessInfo.processInfo.environment)
        guard let path = DataFiles.existing(among: candidates) else { throw MagneticModelFileMissing(searched: candidates) }
        return try WorldMagneticModel(contentsOfFile: path)
    }
}

/// None of the default places holds the WMM2025 coefficients.
public struct MagneticModelFileMissing: Error, Equatable, CustomStringConvertible {
    public let searched: [String]

    public var description: String {
        DataFiles.missing("World Magnetic Model coefficients (\(WorldMagneticModel.wmm2025FileName))", makeTarget: "wmm",
                          variable: "TRAVELOG_WMM", searched: searched) + " (or pass --wmm PATH)"
    }
}
