import ArgumentParser
import Foundation
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogServer
import TravelogStore

/// `travelog review`
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "A year or a month in review: distance by transport mode, countries and cities (new ones marked), days away from home, the longest trip, the most visited places, the furthest point from home, the busiest day, photos.",
        discussion: """
            Each figure comes with the local days behind it (--json). With -o, writes the image instead: \
            a map of the period's paths on the offline world base (make world) with the figures beside it, \
            as PNG or PDF by the file's extension. The same as GET /api/v1/review?period=.
            """)

    @OptionGroup var journal: JournalOptions

    @Argument(help: ArgumentHelp("A year (2025) or a month (2025-07).", valueName: "period"))
    var period: String

    @Option(help: ArgumentHelp("The zone of the period's first and last day (default: the system's).", valueName: "zone"))
    var timezone: String?

    @Option(help: "Kilometres (metric) or miles (imperial).")
    var units: StatsCommand.UnitSystem = .metric

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the image to this file: review.png or review.pdf.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("The offline world base's outline file (default: as `travelog snapshot`).", valueName: "file"))
    var world: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        do { _ = try ReviewPeriod(parsing: period) } catch { throw ValidationError("\(error)") }
        if let timezone, TimeZone(identifier: timezone) == nil {
            throw ValidationError("'\(timezone)' is not a time zone: expected an IANA name such as Europe/Berlin or UTC")
        }
        if let output, ReviewDocument.Format(fileName: output).map({ $0 != .json }) != true {
            throw ValidationError("-o \(output): the file's name must end in .png or .pdf")
        }
    }

    func run() async throws {
        let (store, user) = try await journal.open()
        let zones = try await journal.update(store, user: user)
        let format = output.flatMap(ReviewDocument.Format.init(fileName:))
        let document = try await ReviewDocument.compute(
            store: store, userID: user.id, period: try ReviewPeriod(parsing: period),
            timeZone: timezone.flatMap(TimeZone.init(identifier:)) ?? .current, placeTimeZones: zones, withLines: format != nil)
        if let output, let format {
            let worldPath = GazetteerOptions.worldBasePath(option: world)
            if worldPath == nil { FileHandle.standardError.write(Data("note: \(GazetteerOptions.missingWorldBase())\n".utf8)) }
            let data = try document.image(format, units: units, outlines: worldPath.flatMap { try? WorldOutlines(contentsOf: $0) })
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            if !json { print("wrote \(output) (\(format.rawValue.uppercased()), \(data.count) bytes)") }
        }
        if json {
            print(String(decoding: try document.json(pretty: true), as: UTF8.self))
        } else if output == nil {
            print(document.review.text(units: units))
        }
    }
}
