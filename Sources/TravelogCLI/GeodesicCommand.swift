import ArgumentParser
import TravelogCore

/// `travelog geodesic`: the geodesic problems on WGS84 as a filter, in the format of
/// GeographicLib's `GeodSolve -p 9`, so that either tool can check the other.
public struct GeodesicCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "geodesic",
        abstract: "Solve geodesic problems on WGS84 (Karney's algorithm), one per line of standard input.",
        discussion: """
            Input lines hold decimal degrees and metres separated by spaces; each output line answers \
            the input line of the same number. A line that cannot be read prints \
            "ERROR: line N: <what was expected>" and the command exits with status 1 at the end.
            """,
        subcommands: [Inverse.self, Direct.self]
    )

    public init() {}

    /// Options shared by both problems.
    public struct Options: ParsableArguments {
        @Option(name: [.customShort("p"), .long],
                help: "Fractional digits of distances in metres; angles get 5 more (GeodSolve's -p).")
        public var precision: Int = GeodesicLineProcessor.defaultPrecision

        public init() {}

        public func validate() throws {
            guard GeodesicLineProcessor.precisionRange.contains(precision) else {
                throw ValidationError("--precision must be in \(GeodesicLineProcessor.precisionRange)")
            }
        }
    }

    /// `travelog geodesic inverse`: `lat1 lon1 lat2 lon2` → `azi1 azi2 s12`.
    public struct Inverse: ParsableCommand {
        public static let configuration = CommandConfiguration(
            abstract: "Read `lat1 lon1 lat2 lon2` lines, print `azi1 azi2 s12` (like GeodSolve -i -p 9).")

        @OptionGroup public var options: Options

        public init() {}

        public func run() throws {
            try LineFilter.run(GeodesicLineProcessor(problem: .inverse, precision: options.precision))
        }
    }

    /// `travelog geodesic direct`: `lat1 lon1 azi1 s12` → `lat2 lon2 azi2`.
    public struct Direct: ParsableCommand {
        public static let configuration = CommandConfiguration(
            abstract: "Read `lat1 lon1 azi1 s12` lines, print `lat2 lon2 azi2` (like GeodSolve -p 9).")

        @OptionGroup public var options: Options

        public init() {}

        public func run() throws {
            try LineFilter.run(GeodesicLineProcessor(problem: .direct, precision: options.precision))
        }
    }
}
