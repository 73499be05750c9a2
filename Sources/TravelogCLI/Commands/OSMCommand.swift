import ArgumentParser
import Foundation
import TravelogFormats
import TravelogGeocoding
import TravelogOSM
import TravelogRouting
import TravelogTrackCLI

/// `travelog osm add|list|remove`: OpenStreetMap extracts (`.osm.pbf`) turned into compact places
/// files (addresses, points of interest, streets) in the data folder, for offline geocoding.
struct OSMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osm",
        abstract: "Add, list and remove OpenStreetMap extracts (.osm.pbf; data © OpenStreetMap contributors, ODbL).",
        subcommands: [Add.self, List.self, Remove.self]
    )

    /// The folder of places files: `--osm-dir`, else `$TRAVELOG_OSM_DIR`, else `osm/` beside the
    /// default database (where the gazetteer is looked for first).
    struct FolderOptions: ParsableArguments {
        @Option(name: .customLong("osm-dir"), help: ArgumentHelp(
            "The folder of OSM places files.",
            discussion: "Default: $TRAVELOG_OSM_DIR, else osm/ beside the default database ($XDG_DATA_HOME/travelog/osm).",
            valueName: "path"))
        var osmDirectory: String?

        var folder: OSMExtractFolder {
            let environment = ProcessInfo.processInfo.environment
            let candidates = DataFiles.candidates(fileName: OSMExtractFolder.folderName, option: osmDirectory,
                                                  variable: "TRAVELOG_OSM_DIR", environment: environment)
            return OSMExtractFolder(path: candidates[0])
        }

        /// Street-level reverse geocoding over the extracts added, `nil` when none is: the folder
        /// named by `--osm-dir` or `$TRAVELOG_OSM_DIR`, else the first that exists of `osm/` beside
        /// the default database, in `share/travelog` of `make install`, and in `.build-data/`.
        /// - Throws: `OSMPlacesError` for a damaged places file.
        func streetLevelGeocoder() throws -> OSMReverseGeocoder? {
            try OSMCommand.streetLevelGeocoder(folder: osmDirectory)
        }
    }

    /// Street-level reverse geocoding over the extracts of `folder`, else of the default folder
    /// (see ``FolderOptions/streetLevelGeocoder()``), `nil` when none is added.
    /// - Throws: `OSMPlacesError` for a damaged places file.
    static func streetLevelGeocoder(folder: String?) throws -> OSMReverseGeocoder? {
        let candidates = DataFiles.candidates(fileName: OSMExtractFolder.folderName, option: folder,
                                              variable: "TRAVELOG_OSM_DIR", environment: ProcessInfo.processInfo.environment)
        guard let path = DataFiles.existing(among: candidates) else { return nil }
        let set = try OSMExtractFolder(path: path).open()
        return set.files.isEmpty ? nil : OSMReverseGeocoder(places: set)
    }

    /// `travelog osm add FILE.osm.pbf`
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read an extract and keep its addresses, points of interest and streets.",
            discussion: "An extract of the same name replaces the one added before; where extracts overlap, the most recently added one is used.")

        @OptionGroup var folderOptions: FolderOptions
        @OptionGroup var journal: JournalRedescriptionOptions

        @Option(help: ArgumentHelp("Decoding threads (default: the processors available).", valueName: "n"))
        var threads: Int?

        @Argument(help: ArgumentHelp("The extract (.osm.pbf).", valueName: "file"))
        var extract: String

        func validate() throws {
            if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        }

        func run() async throws {
            let progress = ProgressBar(label: "osm add")
            let started = Date()
            let builder = OSMPlacesBuilder(reader: threads.map { OSMPBFReader(threads: $0) } ?? OSMPBFReader())
            let folder = folderOptions.folder
            let file: OSMPlacesFile
            do {
                file = try folder.add(extractPath: extract, builder: builder) { step in
                    progress.update(bytes: (step.pass - 1) * step.totalBytes + step.bytesDone, totalBytes: step.passes * step.totalBytes,
                                    items: step.pass, itemName: "of \(step.passes) reads")
                }
            } catch {
                progress.finish()
                throw error
            }
            progress.finish()
            let set = try folder.open()
            let fileIndex = set.files.firstIndex(where: { $0.path == file.path }) ?? 0
            var kinds: [OSMPlace.Kind: Int] = [:]
            for index in 0..<file.count {
                for kind in [OSMPlace.Kind.address, .pointOfInterest, .street] where file.kind(at: index).contains(kind) { kinds[kind, default: 0] += 1 }
            }
            let shadowing = (0..<set.files.count).filter { $0 != fileIndex }.reduce(0) { total, other in
                total + (0..<set.files[other].count).filter { file.index(of: set.files[other].elementType(at: $0), id: set.files[other].id(at: $0)) != nil }.count
            }
            print("\(file.sourceName): \(file.count) places (\(kinds[.address] ?? 0) addresses, \(kinds[.pointOfInterest] ?? 0) points of interest, "
                  + "\(kinds[.street] ?? 0) streets) in \(file.path), \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
            if shadowing > 0 { print("\(shadowing) of them are also in other extracts; this one's are used") }
            let graphStarted = Date()
            let graphProgress = ProgressBar(label: "road graph")
            let graph: RoadGraph
            do {
                graph = try RoadGraph.build(extractPath: extract,
                                            outputPath: RoadNetwork.filePath(folder: folder.path, name: OSMExtractFolder.name(ofExtract: extract)),
                                            reader: threads.map { OSMPBFReader(threads: $0) } ?? OSMPBFReader()) { step in
                    switch step {
                    case .reading(let pass, let passes, let bytesDone, let totalBytes):
                        graphProgress.update(bytes: (pass - 1) * totalBytes + bytesDone, totalBytes: passes * totalBytes,
                                             items: pass, itemName: "of \(passes) reads")
                    case .contracting(let statesDone, let states):
                        graphProgress.update(items: statesDone, totalItems: states, itemName: "turn states contracted")
                    case .writing:
                        graphProgress.update(items: 1, totalItems: 1, itemName: "writing the graph file")
                    }
                }
            } catch {
                graphProgress.finish()
                throw error
            }
            graphProgress.finish()
            print("Road graph for directions: \(graph.nodeCount) nodes, \(graph.segmentCount) segments in \(graph.path), "
                  + "\(String(format: "%.2f", Date().timeIntervalSince(graphStarted))) s")
            print("Data © OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright)")
            await journal.describe(osmFolder: folderOptions.osmDirectory)
        }
    }

    /// `travelog osm list`
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the extracts added, oldest first.")

        @OptionGroup var folderOptions: FolderOptions

        @Flag(help: "Print one JSON object per line.")
        var json = false

        func run() throws {
            let folder = folderOptions.folder
            let set = try folder.open()
            if set.files.isEmpty, !json { print("No OSM extracts in \(folder.path): add one with `travelog osm add FILE.osm.pbf`.") }
            for (name, file) in zip(folder.names(), set.files) {
                if json {
                    let writer = JSONLineWriter()
                    writer.beginObject()
                    writer.member("name", string: name)
                    writer.member("path", string: file.path)
                    writer.member("places", integer: file.count)
                    writer.member("source", string: file.sourceName)
                    writer.endObject()
                    print(writer.takeText())
                } else {
                    let box = file.boundingBox.map {
                        String(format: "  %.4f,%.4f – %.4f,%.4f", $0.minimumLatitude, $0.minimumLongitude, $0.maximumLatitude, $0.maximumLongitude)
                    } ?? ""
                    print("\(name)  \(file.count) places  from \(file.sourceName)\(box)")
                }
            }
        }
    }

    /// `travelog osm remove NAME`
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an extract added before (by the name `osm list` shows).")

        @OptionGroup var folderOptions: FolderOptions
        @OptionGroup var journal: JournalRedescriptionOptions

        @Argument(help: ArgumentHelp("The extract's name (Helsinki, or Helsinki.osm.pbf).", valueName: "name"))
        var name: String

        func run() async throws {
            let folder = folderOptions.folder
            try folder.remove(name: name)
            let graph = RoadNetwork.filePath(folder: folder.path, name: OSMExtractFolder.name(ofExtract: name))
            if FileManager.default.fileExists(atPath: graph) { try FileManager.default.removeItem(atPath: graph) }
            print("Removed \(OSMExtractFolder.name(ofExtract: name)) from \(folder.path)")
            await journal.describe(osmFolder: folderOptions.osmDirectory)
        }
    }
}
