import ArgumentParser
import Foundation
import TravelogTrackCLI
import TravelogTracking

/// `travelog declination LAT LON`: the magnetic declination of the World Magnetic Model 2025,
/// what to add to a compass heading to get the true heading. Without coordinates it reads
/// `lat lon` lines from standard input, like `travelog geodesic`.
struct DeclinationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "declination",
        abstract: "Print the magnetic declination (WMM2025) at a place, or for each `lat lon` line of standard input.",
        discussion: "Degrees east of true north: true heading = magnetic heading + declination.")

    @Argument(help: "Latitude in degrees (WGS84).") var latitude: Double?
    @Argument(help: "Longitude in degrees.") var longitude: Double?
    @Option(help: ArgumentHelp("The date (YYYY-MM-DD, UTC); default today.", valueName: "date")) var date: String?
    @Option(name: .customLong("altitude-meters"), help: "Height above the WGS84 ellipsoid, in metres.") var altitudeMeters: Double = 0
    @Flag(help: "One JSON object per answer, with the inclination and the total intensity.") var json = false
    @OptionGroup var model: MagneticModelOptions

    func validate() throws {
        guard (latitude == nil) == (longitude == nil) else { throw ValidationError("give both LAT and LON, or neither to read lines") }
        if let latitude, !(-90...90).contains(latitude) { throw ValidationError("LAT must be in [-90, 90]") }
        if date != nil && decimalYear == nil { throw ValidationError("--date must be a day YYYY-MM-DD") }
        guard WorldMagneticModel.heightRangeMeters.contains(altitudeMeters) else {
            throw ValidationError("--altitude-meters must be in -1000...850000")
        }
    }

    private var decimalYear: Double? {
        guard let date else { return DecimalYear.of(Date()) }
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return DecimalYear.of(year: parts[0], month: parts[1], day: parts[2])
    }

    func run() throws {
        let model = try self.model.load()
        guard let year = decimalYear else { throw ValidationError("--date must be a day YYYY-MM-DD") }
        guard model.validYears.contains(year) else {
            throw WorldMagneticModelError.dateOutsideModel(decimalYear: year, valid: model.validYears)
        }
        if let latitude, let longitude {
            let field = try model.field(latitudeDegrees: latitude, longitudeDegrees: longitude,
                                        heightMeters: altitudeMeters, decimalYear: year)
            print(DeclinationLineProcessor.format(field, latitude: latitude, longitude: longitude, json: json))
            return
        }
        try LineFilter.run(DeclinationLineProcessor(model: model, decimalYear: year, heightMeters: altitudeMeters, json: json))
    }
}
