import ArgumentParser
import Foundation
import TravelogCore
import TravelogJournal
import TravelogPhotos
import TravelogStore

/// `travelog photos add`
struct PhotosAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add photos to your history: their time and position (their own GPS, else placed by your track), and thumbnails.",
        discussion: """
            Folders are read recursively. A photo is its content: adding it again stores nothing, and a photo whose \
            file moved is followed to where it is now. Originals stay where they are; the thumbnails (256 and 1280 px) \
            are made once, in a folder beside the database. A photo without its own GPS position is placed by your \
            history as `photos geotag` places it (a visit's centre, or between fixes at most --max-gap seconds apart), \
            or kept with the reason it could not be. A damaged file, or one that is not a photo, is named and skipped \
            (exit status 1). Progress is shown on a terminal.
            """)

    @OptionGroup var files: PhotoFileArguments
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions

    @Option(help: ArgumentHelp("The device whose track places the photos (default: all of the user's).", valueName: "name"))
    var device: String?

    @Option(help: ArgumentHelp("The largest time between the fixes around a photo, seconds.", valueName: "seconds"))
    var maxGap: Double = 300

    @Option(help: ArgumentHelp("The camera's clock's offset from UTC, e.g. +02:00.", valueName: "±HH:MM"))
    var cameraOffset: String?

    @Option(help: ArgumentHelp("The camera's clock's time zone, e.g. Europe/Helsinki.", valueName: "zone"))
    var cameraZone: String?

    @Option(help: ArgumentHelp("Photos read at once (default: the processors).", valueName: "count"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard maxGap.isFinite, maxGap >= 0 else { throw ValidationError("--max-gap must be a number of seconds ≥ 0") }
        guard cameraOffset == nil || cameraZone == nil else { throw ValidationError("give --camera-offset or --camera-zone, not both") }
        if let cameraOffset, CameraClock.offsetSeconds(cameraOffset) == nil {
            throw ValidationError("--camera-offset \(cameraOffset): not an offset as ±HH:MM")
        }
        if let cameraZone, TimeZone(identifier: cameraZone) == nil { throw ValidationError("--camera-zone \(cameraZone): no such time zone") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be 1 to 64") }
    }

    func run() async throws {
        let paths = try files.files()
        let store = try await storeOptions.openStore()
        guard let photos = store as? any PhotoStore else { throw ValidationError("this store keeps no photos") }
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        var target: Device?
        if let device { target = try await account.devices(named: [device], of: user, in: store).first }
        var zones: PlaceTimeZones?
        if cameraOffset == nil, cameraZone == nil, let describer = gazetteerOptions.describer() {
            zones = PlaceTimeZones(describer: describer, boundaries: gazetteerOptions.timeZoneBoundaries(note: { _ in }))
        }
        let history = PhotoStoreHistory(store: store, userID: user.id, deviceIDs: target.map { [$0.id] },
                                        zoneAt: zones.map(PhotosGeotagCommand.zoneAt))
        let clock: CameraClock = if let cameraOffset, let seconds = CameraClock.offsetSeconds(cameraOffset) { .offset(seconds: seconds) }
            else if let cameraZone, let zone = TimeZone(identifier: cameraZone) { .zone(zone) } else { .automatic }
        let library = PhotoLibrary(store: photos, userID: user.id, deviceID: target?.id,
                                   geotagger: PhotoGeotagger(clock: clock, placer: PhotoPlacer(maxGapSeconds: maxGap)),
                                   history: history, folder: PhotoFolder(root: storeOptions.photosDirectory()))
        let summary = try await Self.add(paths, to: library, jobs: jobs)
        print(summary.text)
        if summary.skipped > 0 { throw ExitCode(1) }
    }

    /// What `photos add` did, counted.
    struct Summary: Sendable {
        var added = 0, known = 0, moved = 0, skipped = 0, placed = 0, unplaced = 0

        var text: String {
            var parts = ["\(added) added", "\(known) already there"]
            if moved > 0 { parts.append("\(moved) moved") }
            parts.append("\(skipped) skipped")
            if added > 0 { parts.append("of the added, \(placed) placed by the history and \(unplaced) without a position") }
            return parts.joined(separator: ", ")
        }

        mutating func count(_ outcome: PhotoLibrary.Outcome) {
            switch outcome {
            case .added(let photo):
                added += 1
                switch photo.record.positionSource {
                case .interpolated, .visit: placed += 1
                case .unplaced: unplaced += 1
                case .ownGPS: break
                }
            case .known: known += 1
            case .moved: moved += 1
            case .skipped(let path, let reason):
                skipped += 1
                FileHandle.standardError.write(Data("travelog: \(path): skipped: \(Self.withoutPath(reason, path))\n".utf8))
            }
        }

        /// The reason without the path it already starts with.
        static func withoutPath(_ reason: String, _ path: String) -> String {
            reason.hasPrefix(path + ": ") ? String(reason.dropFirst(path.count + 2)) : reason
        }
    }

    /// Adds the files, `jobs` at a time, with a progress line on a terminal.
    static func add(_ paths: [String], to library: PhotoLibrary, jobs: Int) async throws -> Summary {
        let progress = ProgressBar(label: "photos")
        var summary = Summary()
        try await withThrowingTaskGroup(of: PhotoLibrary.Outcome.self) { group in
            var next = paths.makeIterator()
            var done = 0
            for _ in 0..<jobs {
                guard let path = next.next() else { break }
                group.addTask { try await library.add(path: path) }
            }
            while let outcome = try await group.next() {
                summary.count(outcome)
                done += 1
                progress.update(items: done, totalItems: paths.count, itemName: "photos")
                if let path = next.next() { group.addTask { try await library.add(path: path) } }
            }
        }
        progress.finish()
        return summary
    }
}
