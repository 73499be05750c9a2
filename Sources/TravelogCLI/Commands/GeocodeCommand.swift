import ArgumentParser
import TravelogCore
import TravelogGeocoding

/// `travelog geocode reverse|forward`: offline geocoding against the GeoNames gazetteer.
struct GeocodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Find places offline in the GeoNames gazetteer (CC BY 4.0): coordinates to a place, or text to places.",
        subcommands: [Reverse.self, Forward.self]
    )

    /// `travelog geocode reverse [LAT LON]`
    struct Reverse: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the place nearest to a coordinate, with its division, country, time zone and distance.",
            discussion: """
                Without coordinates, reads `lat lon` lines (decimal degrees) from standard input and \
                prints one line for each; a line that cannot be read prints "ERROR: line N: <what was \
                expected>" and the command exits with status 1 at the end.
                """)

        @OptionGroup var gazetteerOptions: GazetteerOptions

        /// Street, house number and point of interest where an extract added by `travelog osm add` covers the coordinate.
        @OptionGroup var osmOptions: OSMCommand.FolderOptions

        @Flag(help: "Print one JSON object per line.")
        var json = false

        /// Latitude and longitude; taken raw so that negative degrees are not read as options.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Latitude and longitude in decimal degrees.", valueName: "lat lon"))
        var coordinate: [String] = []

        func validate() throws {
            guard coordinate.isEmpty || coordinate.count == 2 else {
                throw ValidationError("expected a latitude and a longitude, or none to read lines from standard input")
            }
            if !coordinate.isEmpty, let problem = ReverseGeocodeLineProcessor.problem(in: coordinate.joined(separator: " ")) {
                throw ValidationError(problem.description)
            }
        }

        func run() throws {
            var geocoder = try ReverseGeocoder(gazetteer: gazetteerOptions.load())
            geocoder.streetLevel = try osmOptions.streetLevelGeocoder()
            guard !coordinate.isEmpty else {
                // Each core its own processor (its own JSON buffer); the geocoder's files are shared.
                try LineFilter.runParallel { ReverseGeocodeLineProcessor(geocoder: geocoder, json: json) }
                return
            }
            var single = ReverseGeocodeLineProcessor(geocoder: geocoder, json: json)
            print(single.process(line: coordinate.joined(separator: " ")))
            if single.failedLineCount > 0 { throw ExitCode(1) }
        }
    }

    /// `travelog geocode forward TEXT`
    struct Forward: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the places a text names (\"Paris, France\", \"Springfield, IL\"), best first.",
            discussion: "Street addresses (\"Mannerheimintie 10, Helsinki\", \"10 Mannerheimintie\") are found down to the house number where an extract added by `travelog osm add` has them.")

        @OptionGroup var gazetteerOptions: GazetteerOptions

        /// Street addresses from the extracts added by `travelog osm add`.
        @OptionGroup var osmOptions: OSMCommand.FolderOptions

        @Flag(help: "Print one JSON object per line.")
        var json = false

        @Option(help: "The most places printed.")
        var limit = 5

        @Argument(help: "A place, optionally with its division and country, separated by commas.")
        var text: String

        func validate() throws {
            guard limit >= 1 else { throw ValidationError("--limit must be at least 1") }
        }

        func run() throws {
            var geocoder = try ForwardGeocoder(gazetteer: gazetteerOptions.load())
            geocoder.streetLevel = try osmOptions.searchIndex()
            let placemarks = geocoder.placemarks(for: text, limit: limit)
            if placemarks.isEmpty && !json { print("No place found for \"\(text)\".") }
            for (rank, placemark) in placemarks.enumerated() {
                if json {
                    print(PlacemarkOutput.json(placemark, reverse: false))
                } else {
                    let coordinate = placemark.coordinate
                    print("\(rank + 1). \(PlacemarkOutput.text(placemark)); \(coordinate.latitude), \(coordinate.longitude)")
                }
            }
        }
    }
}
