import ArgumentParser
import Foundation
import TravelogCore
import TravelogFormats
import TravelogJournal
import TravelogPhotos
import TravelogStore

/// `travelog photos`: photos' metadata, and photos placed by the history (issue 32).
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Photos' capture times and positions (EXIF, through Exiv2), and photos placed by the history.",
        subcommands: [PhotosAddCommand.self, PhotosReadCommand.self, PhotosGeotagCommand.self])
}

/// The photos named on the command line: files as given, folders read recursively for the image
/// formats Exiv2 reads (by extension), in path order.
struct PhotoFileArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Photos, or folders of photos (read recursively).", valueName: "dir|file"))
    var paths: [String]

    static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "mpo", "heic", "heif", "hif", "avif", "png", "webp", "tif", "tiff",
                                          "dng", "cr2", "cr3", "nef", "nrw", "arw", "sr2", "orf", "rw2", "pef", "srw", "raf"]

    func files() throws -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("\(path): no such file or folder")
            }
            guard isDirectory.boolValue else { found.append(path); continue }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let names = try FileManager.default.subpathsOfDirectory(atPath: path).sorted()
            for name in names where Self.extensions.contains((name as NSString).pathExtension.lowercased()) {
                found.append(base + "/" + name)
            }
        }
        return found
    }
}

/// `travelog photos read`
struct PhotosReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print photos' capture time, position, size, orientation, camera and SHA-256.",
        discussion: "A damaged file, or one that is not a photo, is named with the reason and skipped; the exit status is then 1.")

    @OptionGroup var files: PhotoFileArguments

    @Flag(help: "Print JSON (one array).")
    var json = false

    func run() async throws {
        var records: [PhotoJSON] = []
        var failed = 0
        for path in try files.files() {
            do {
                let metadata = try PhotoMetadataReader.read(path: path)
                if json { records.append(PhotoJSON(metadata)) } else { print(PhotoText.describe(metadata)) }
            } catch {
                failed += 1
                if json { records.append(PhotoJSON(file: path, error: error.description)) }
                FileHandle.standardError.write(Data("travelog: \(error)\n".utf8))
            }
        }
        if json { print(try PhotoJSON.encode(records)) }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// `travelog photos geotag`
struct PhotosGeotagCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geotag",
        abstract: "Place photos that have no GPS position by your history: list them (--dry-run), write it into them (--write) or beside them (--xmp).",
        discussion: """
            A photo inside a journal visit is placed at the visit's centre (its radius as the accuracy); otherwise \
            on the geodesic between the fixes just before and just after its time, when they are at most --max-gap \
            seconds apart (accuracy: the worse fix's, plus the distance to the nearer fix). The camera's clock is \
            read with --camera-offset or --camera-zone, else the photo's OffsetTimeOriginal, else the time zone of \
            where the history says you were (time-zone boundaries or gazetteer when installed). Photos with their \
            own GPS position are listed and never written. A position inside one of your privacy zones (any rule) is \
            never written: the photo is listed as "inside privacy zone NAME". --write puts the position into each \
            placed photo's own EXIF (GPSLatitude/Longitude, GPSAltitude when the fixes have one, GPSMapDatum WGS-84, \
            GPSDateStamp/TimeStamp, GPSHPositioningError = the accuracy), every other tag unchanged, through a \
            temporary file in the same folder renamed over the photo; the untouched file is kept as \
            PHOTO.EXT.original (never replacing one) unless --overwrite-original. Formats Exiv2 cannot write \
            (HEIF/HEIC/AVIF with Exiv2 0.27) are named and skipped: use --xmp for them. --xmp writes each placed \
            photo's position into a sidecar beside it, PHOTO.EXT.xmp (what darktable and digiKam read), never \
            replacing one that exists.
            """)

    @OptionGroup var files: PhotoFileArguments
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions

    @Option(help: ArgumentHelp("Only this device's track (repeat for several; default: all of the user's).", valueName: "name"))
    var device: [String] = []

    @Option(help: ArgumentHelp("The largest time between the fixes around a photo, seconds.", valueName: "seconds"))
    var maxGap: Double = 300

    @Option(help: ArgumentHelp("The camera's clock's offset from UTC, e.g. +02:00.", valueName: "±HH:MM"))
    var cameraOffset: String?

    @Option(help: ArgumentHelp("The camera's clock's time zone, e.g. Europe/Helsinki.", valueName: "zone"))
    var cameraZone: String?

    @Flag(help: "List what would be done; write nothing.")
    var dryRun = false

    @Flag(help: "Write each placed photo's position into an XMP sidecar beside it (PHOTO.EXT.xmp); existing sidecars are left alone.")
    var xmp = false

    @Flag(help: "Write each placed photo's position into its own EXIF, keeping the untouched file as PHOTO.EXT.original.")
    var write = false

    @Flag(help: "With --write: keep no PHOTO.EXT.original.")
    var overwriteOriginal = false

    @Flag(help: "Print JSON: per file its latitude, longitude, time and how it was placed, or why not.")
    var json = false

    /// The zone at a place, as the history's time zones say (also for `photos add`).
    static func zoneAt(_ zones: PlaceTimeZones) -> @Sendable (Coordinate) -> TimeZone? {
        { zones.timeZone(at: $0) }
    }

    func validate() throws {
        guard dryRun || xmp || write else {
            throw ValidationError("give --dry-run (list what would be done), --write (into the photos' EXIF) or --xmp (sidecars beside them)")
        }
        guard !overwriteOriginal || write else { throw ValidationError("--overwrite-original goes with --write") }
        guard maxGap.isFinite, maxGap >= 0 else { throw ValidationError("--max-gap must be a number of seconds ≥ 0") }
        guard cameraOffset == nil || cameraZone == nil else { throw ValidationError("give --camera-offset or --camera-zone, not both") }
        if let cameraOffset, CameraClock.offsetSeconds(cameraOffset) == nil {
            throw ValidationError("--camera-offset \(cameraOffset): not an offset as ±HH:MM")
        }
        if let cameraZone, TimeZone(identifier: cameraZone) == nil { throw ValidationError("--camera-zone \(cameraZone): no such time zone") }
    }

    func run() async throws {
        let paths = try files.files()
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let deviceIDs = device.isEmpty ? nil : Set(try await account.devices(named: device, of: user, in: store).map(\.id))
        var zones: PlaceTimeZones?
        if cameraOffset == nil, cameraZone == nil, let describer = gazetteerOptions.describer() {
            zones = PlaceTimeZones(describer: describer, boundaries: gazetteerOptions.timeZoneBoundaries(note: { _ in }))
        }
        let history = PhotoStoreHistory(store: store, userID: user.id, deviceIDs: deviceIDs, zoneAt: zones.map(Self.zoneAt))
        let clock: CameraClock = if let cameraOffset, let seconds = CameraClock.offsetSeconds(cameraOffset) { .offset(seconds: seconds) }
            else if let cameraZone, let zone = TimeZone(identifier: cameraZone) { .zone(zone) } else { .automatic }
        let privacyZones = PhotoPrivacyZones(try await store.zones(userID: user.id))
        let geotagger = PhotoGeotagger(clock: clock, placer: PhotoPlacer(maxGapSeconds: maxGap), privacyZone: privacyZones.zoneName(containing:))
        var records: [PhotoJSON] = []
        for path in paths {
            let result = try await geotagger.geotag(path: path, history: history)
            var sidecar: Result<String, XMPSidecar.Failure>?
            if xmp, !dryRun, let coordinate = result.placement?.coordinate {
                do { sidecar = .success(try XMPSidecar.write(coordinate: coordinate, besidePhoto: path)) } catch { sidecar = .failure(error) }
            }
            var written: Result<PhotoEXIFWriter.Written, PhotoEXIFWriter.Failure>?
            if write, !dryRun, let fix = result.exifFix {
                do {
                    written = .success(try PhotoEXIFWriter.write(fix, into: path, expectedDigest: result.metadata?.contentDigest,
                                                                 keepOriginal: !overwriteOriginal))
                } catch {
                    written = .failure(error)
                }
            }
            if json {
                var record = PhotoJSON(result)
                if case .success(let written)? = sidecar { record.sidecar = written }
                if case .failure(let failure)? = sidecar { record.sidecarError = failure.description }
                if case .success(let done)? = written { (record.written, record.original) = (done.path, done.originalPath) }
                if case .failure(let failure)? = written { record.writeError = failure.description }
                records.append(record)
            } else {
                print(PhotoText.describe(result))
                if case .success(let written)? = sidecar { print("  wrote \(written)") }
                if case .failure(let failure)? = sidecar { print("  no sidecar: \(failure)") }
                if case .success(let done)? = written {
                    print("  wrote the position into \(done.path)" + (done.originalPath.map { " (the original kept as \($0))" } ?? ""))
                }
                if case .failure(let failure)? = written { print("  \(failure)") }
            }
            if let error = result.error { FileHandle.standardError.write(Data("travelog: \(error)\n".utf8)) }
        }
        if json { print(try PhotoJSON.encode(records)) }
    }
}
