import Foundation
import TravelogOSM

/// The folder of OSM places files (`travelog osm add|list|remove`): one `.tlosm` per extract,
/// named after it (`Helsinki.osm.pbf` → `Helsinki.tlosm`). Adding an extract of the same name
/// replaces it; the file is written beside its final name and renamed, so a reader never sees
/// half of one.
public struct OSMExtractFolder: Sendable {
    /// The folder's name under the data folder (`$XDG_DATA_HOME/travelog/osm`).
    public static let folderName = "osm"

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The name a places file gets for an extract: its file name without `.osm.pbf` or `.pbf`.
    public static func name(ofExtract extractPath: String) -> String {
        var name = (extractPath as NSString).lastPathComponent
        for suffix in [".osm.pbf", ".pbf"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name
    }

    /// The path of a places file by its name.
    public func filePath(name: String) -> String { path + "/" + name + "." + OSMPlacesFile.fileExtension }

    /// The names of the places files, in the order they were added (oldest first; later ones win
    /// where extracts overlap).
    public func names() -> [String] {
        let suffix = "." + OSMPlacesFile.fileExtension
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let files = entries.filter { $0.hasSuffix(suffix) }.map { name -> (String, Date) in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            return (String(name.dropLast(suffix.count)), attributes?[.modificationDate] as? Date ?? .distantPast)
        }
        return files.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }

    /// Opens every places file, oldest first.
    /// - Throws: ``OSMPlacesError`` for a damaged file.
    public func open() throws(OSMPlacesError) -> OSMPlaceSet {
        var files: [OSMPlacesFile] = []
        for name in names() { files.append(try OSMPlacesFile(contentsOfFile: filePath(name: name))) }
        return OSMPlaceSet(files: files)
    }

    /// Reads an extract and writes its places file (replacing one of the same name).
    /// - Returns: the opened file.
    /// - Throws: ``OSMPBFError`` for the extract, ``OSMExtractFolderError`` for the folder.
    public func add(extractPath: String, builder: OSMPlacesBuilder = OSMPlacesBuilder(),
                    progress: (OSMPlacesBuilder.Progress) -> Void = { _ in }) throws -> OSMPlacesFile {
        let size = (try? FileManager.default.attributesOfItem(atPath: extractPath))?[.size] as? Int ?? 0
        let (places, header) = try builder.places(fromFile: extractPath, totalBytes: size, progress: progress)
        let name = Self.name(ofExtract: extractPath)
        let bytes = OSMPlacesFile.encode(places, sourceName: (extractPath as NSString).lastPathComponent, boundingBox: header?.boundingBox)
        let final = filePath(name: name)
        let partial = final + ".partial"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: partial))
            if FileManager.default.fileExists(atPath: final) { try FileManager.default.removeItem(atPath: final) }
            try FileManager.default.moveItem(atPath: partial, toPath: final)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw OSMExtractFolderError.cannotWrite(path: final, reason: "\(error.localizedDescription)")
        }
        return try OSMPlacesFile(contentsOfFile: final)
    }

    /// Deletes a places file by name.
    /// - Throws: ``OSMExtractFolderError/noSuchExtract(name:folder:)``.
    public func remove(name: String) throws(OSMExtractFolderError) {
        let file = filePath(name: Self.name(ofExtract: name))
        guard FileManager.default.fileExists(atPath: file) else { throw .noSuchExtract(name: name, folder: path, known: names()) }
        do {
            try FileManager.default.removeItem(atPath: file)
        } catch {
            throw .cannotWrite(path: file, reason: error.localizedDescription)
        }
    }
}

/// Why the folder of OSM places files could not be changed.
public enum OSMExtractFolderError: Error, Equatable, Sendable, CustomStringConvertible {
    case noSuchExtract(name: String, folder: String, known: [String])
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .noSuchExtract(let name, let folder, let known):
            "no OSM extract named \(name) in \(folder)" + (known.isEmpty ? " (none added)" : " (added: \(known.joined(separator: ", ")))")
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
