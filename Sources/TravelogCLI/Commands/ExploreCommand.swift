import ArgumentParser
import Foundation
import TravelogCore
import TravelogGeocoding
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogStore

/// `travelog explore`
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Where I have been: the area explored (cells of about 25 m along every path), per country and city.",
        discussion: """
            A cell counts where a fix lies or the path between two consecutive fixes of a device passes (not across a \
            silence of more than an hour, nor faster than 70 m/s: a flight explores its two ends). Countries and cities \
            are those of the gazetteer place nearest to each block of about 500 m; days are the journal's local days. \
            With --city, that city's explored area and, where an OSM extract (`travelog osm add`) covers it, the length \
            of its named streets and the part within 25 m of a visited cell, and where the extract holds the city's \
            administrative outline (or its districts'), the share of their area explored. With --days, every day's distance, fixes \
            and countries instead (the page's timeline of a life). With --countries-map FILE, the countries map: every \
            country with days, shaded by them, as GeoJSON (FILE.geojson or .json) or an image (FILE.png), on the \
            offline world base (make world).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions
    @OptionGroup var osmOptions: OSMCommand.FolderOptions
    @OptionGroup var range: TimeRangeOptions

    @Option(help: ArgumentHelp("A city (a gazetteer place's name): its explored area and streets covered.", valueName: "name"))
    var city: String?

    @Flag(help: "Every day's distance, fixes and countries (of the range) instead.")
    var days = false

    @Option(help: ArgumentHelp("Write the countries map, shaded by local days: FILE.geojson (or .json) or FILE.png.", valueName: "file"))
    var countriesMap: String?

    @Option(help: ArgumentHelp("The offline world base's outline file (default: as `travelog snapshot`).", valueName: "file"))
    var world: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if let city, city.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--city needs a name") }
        if days, city != nil { throw ValidationError("--days and --city do not go together") }
        if let countriesMap {
            guard Self.countriesMapFormat(countriesMap) != nil else {
                throw ValidationError("--countries-map '\(countriesMap)': expected a file ending in .geojson, .json or .png")
            }
            if days || city != nil { throw ValidationError("--countries-map goes with neither --days nor --city") }
        }
    }

    /// `true` for an image, `false` for GeoJSON, by the file's extension.
    static func countriesMapFormat(_ path: String) -> Bool? {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": true
        case "geojson", "json": false
        default: nil
        }
    }

    func run() async throws {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let gazetteer = try? gazetteerOptions.load()
        if gazetteer == nil { FileHandle.standardError.write(Data("note: no gazetteer, so no countries or cities by area\n".utf8)) }
        // The journal's visits give the countries' days: brought up to date first.
        let processor = JournalProcessor(store: store, describer: gazetteerOptions.describer(osmFolder: osmOptions.osmDirectory))
        for device in try await store.devices(userID: user.id) {
            _ = try await processor.process(device: device, from: try await store.latestDetectedArrival(device: device), to: nil)
        }
        var zones: PlaceTimeZones?
        if let gazetteer {
            zones = PlaceTimeZones(describer: GazetteerDescriber(gazetteer: gazetteer), boundaries: gazetteerOptions.timeZoneBoundaries())
        }
        let reader = JournalReader(store: store, timeZones: zones)
        if days {
            var placeOffset: (@Sendable (Location) -> Int?)?
            if let zones { placeOffset = { zones.offsetSeconds(for: $0) } }
            let (periods, _) = try await HistoryStatistics.compute(
                store: store, userID: user.id, devices: try await store.devices(userID: user.id), from: range.fromDate, to: range.toDate,
                period: .day, timeZone: range.timeZone, placeOffsetSeconds: placeOffset)
            let life = LifeDays(periods: periods, countriesByDay: try await reader.countriesByDay(userID: user.id, from: range.fromDate, to: range.toDate))
            if json {
                print(try JournalOutput.json(life))
            } else {
                for index in life.days.indices {
                    print("\(life.days[index])  \(String(format: "%9.2f km", Double(life.distanceMeters[index]) / 1000))  "
                          + "\(String(format: "%7d", life.locations[index])) fixes  \(life.countries[index])")
                }
            }
            return
        }
        let whereabouts = try await reader.whereabouts(userID: user.id, from: nil, to: nil)
        if let countriesMap {
            try writeCountriesMap(countriesMap, whereabouts: whereabouts, gazetteer: gazetteer)
            return
        }
        let loaded = try await HistoryIndexLoader.load(store: store, userID: user.id)
        let figures: ExploreFigures
        do {
            let outlines = GazetteerOptions.worldBasePath(option: world).flatMap { try? WorldOutlines(contentsOf: $0) }
            figures = try ExploreFigures.compute(cells: loaded.index.explored, whereabouts: whereabouts,
                                                 geocoder: gazetteer.map(ReverseGeocoder.init(gazetteer:)),
                                                 streets: try osmOptions.streetLevelGeocoder(), city: city,
                                                 countryAreas: outlines?.countryAreas() ?? [:])
        } catch let error as ExploreFiguresError {
            throw ValidationError(error.description)
        }
        print(json ? try JournalOutput.json(figures) : Self.text(figures))
    }

    /// Writes the countries map of these whereabouts to `path` (GeoJSON or PNG by its extension).
    func writeCountriesMap(_ path: String, whereabouts: Whereabouts, gazetteer: Gazetteer?) throws {
        guard let worldPath = GazetteerOptions.worldBasePath(option: world) else {
            throw ValidationError(GazetteerOptions.missingWorldBase())
        }
        let outlines = try WorldOutlines(contentsOf: worldPath)
        guard !outlines.countries.isEmpty else {
            throw ValidationError("\(worldPath) has no countries' codes (an older file): make it again with `make world`")
        }
        let days = Dictionary(whereabouts.countries.map { ($0.code, $0.days) }, uniquingKeysWith: max)
        let map = outlines.countriesMap(days: days, names: Dictionary((gazetteer?.countries ?? []).map { ($0.code, $0.name) },
                                                                      uniquingKeysWith: { first, _ in first }))
        let data: Data
        if Self.countriesMapFormat(path) == true {
            data = try outlines.countriesImage(days: days)
        } else {
            // Compact: an outline's thousands of positions one per line would be most of the file.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(map)
        }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        var said = "\(path): \(map.features.count) \(map.features.count == 1 ? "country" : "countries") shaded by days"
        if !map.withoutOutline.isEmpty { said += "; too small for the world base: \(map.withoutOutline.joined(separator: ", "))" }
        FileHandle.standardError.write(Data((said + "\n").utf8))
    }

    /// A share as a percentage with two significant digits: "0.00019 %", "1.2 %", "45 %".
    static func share(_ fraction: Double) -> String {
        let percent = fraction * 100
        guard percent > 0 else { return "0 %" }
        let decimals = max(0, min(8, 1 - Int(log10(percent).rounded(.down))))
        return String(format: "%.\(decimals)f %%", percent)
    }

    /// "0.31 of 1.52 km² explored (20 %)"
    static func outline(_ outline: ExploreFigures.Outline) -> String {
        "\(area(outline.exploredSquareKilometers)) of \(area(outline.areaSquareKilometers)) explored (\(share(outline.share)))"
    }

    static func area(_ squareKilometers: Double) -> String {
        String(format: squareKilometers < 0.01 ? "%.4f km²" : squareKilometers < 10 ? "%.2f km²" : "%.1f km²", squareKilometers)
    }

    /// The figures for people.
    static func text(_ figures: ExploreFigures) -> String {
        if let city = figures.city {
            let streets = city.streets.map {
                String(format: "  streets: %.1f of %.1f km covered (%.1f%%), %d lines", $0.coveredMeters / 1000, $0.lengthMeters / 1000,
                       $0.share * 100, $0.lines)
            } ?? "  streets: no OSM extract covers it (travelog osm add)"
            var lines = ["\(city.name) (\(city.countryCode)): \(area(city.areaSquareKilometers)) explored", streets]
            if let outline = city.outline { lines.append("  outline: " + Self.outline(outline)) }
            if let districts = city.districts, !districts.isEmpty {
                lines.append("  districts (OSM admin_level \(districts[0].adminLevel)):")
                for district in districts { lines.append("    \(district.name): " + Self.outline(district)) }
            }
            if city.outline == nil, city.districts?.isEmpty ?? true {
                lines.append("  share of its area: no OSM extract holds its outline or its districts' whole")
            }
            return lines.joined(separator: "\n")
        }
        var lines = ["explored: \(area(figures.areaSquareKilometers)) (\(figures.cells) cells of \(Int(figures.cellSizeMeters)) m)"]
        if !figures.countries.isEmpty {
            lines.append("countries:")
            for country in figures.countries {
                lines.append("  \(country.code) \(country.name ?? "")  \(country.days) \(country.days == 1 ? "day" : "days")  "
                             + area(country.areaSquareKilometers) + (country.shareOfCountry.map { " (\(Self.share($0)) of the country)" } ?? ""))
            }
        }
        if !figures.cities.isEmpty {
            lines.append("cities explored most:")
            for city in figures.cities {
                lines.append("  \(city.name) (\(city.countryCode))  \(area(city.areaSquareKilometers))"
                             + (city.outline.map { " (\(Self.share($0.share)) of its \(area($0.areaSquareKilometers)))" } ?? ""))
            }
        }
        return lines.joined(separator: "\n")
    }
}
