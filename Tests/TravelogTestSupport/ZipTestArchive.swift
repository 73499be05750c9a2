import Foundation
import TravelogTestSupport

/// Builds ZIP archives at test time with Python's `zipfile`, a writer independent of the libzip
/// that reads them, so that no binary archive is committed.
public enum ZipTestArchive {
    /// One entry to write.
    public struct Member {
        public var name: String
        public var bytes: [UInt8]
        public var deflated = true
        /// Write ZIP64 extra fields although the entry is small (`zipfile`'s `force_zip64`).
        public var forceZip64 = false

        public init(name: String, bytes: [UInt8], deflated: Bool = true, forceZip64: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.deflated = deflated
            self.forceZip64 = forceZip64
        }

        public static func folder(_ name: String) -> Member { Member(name: name, bytes: [], deflated: false) }
    }

    public struct PythonFailed: Error, CustomStringConvertible {
        public var description: String
    }

    private static let script = """
        import json, sys, zipfile
        members = json.load(open(sys.argv[1]))
        with zipfile.ZipFile(sys.argv[2], 'w') as archive:
            for member in members:
                info = zipfile.ZipInfo(member['name'], date_time=(2024, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED if member['deflated'] else zipfile.ZIP_STORED
                if member['name'].endswith('/'):
                    archive.writestr(info, b'')
                    continue
                with open(member['path'], 'rb') as source, archive.open(info, 'w', force_zip64=member['zip64']) as target:
                    target.write(source.read())
        """

    /// Writes `members` into a new archive named `fileName` in a fresh test folder; returns its path.
    public static func make(_ members: [Member], fileName: String = "archive.zip") throws -> String {
        let folder = TestDirectory.makeFolder("zip")
        var manifest: [[String: Any]] = []
        for (index, member) in members.enumerated() {
            let path = folder.appendingPathComponent("member-\(index)").path
            try Data(member.bytes).write(to: URL(fileURLWithPath: path))
            manifest.append(["name": member.name, "path": path, "deflated": member.deflated, "zip64": member.forceZip64])
        }
        let manifestPath = folder.appendingPathComponent("manifest.json").path
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        let archivePath = folder.appendingPathComponent(fileName).path
        try python(script, arguments: [manifestPath, archivePath])
        return archivePath
    }

    /// An archive of `count` empty stored entries (`f0` … `f{count-1}`): a central directory as
    /// long as the caller wants, cheaply.
    public static func makeEmptyEntries(count: Int, fileName: String = "many.zip") throws -> String {
        try runPython("""
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w') as archive:
                for index in range(int(sys.argv[2])):
                    archive.writestr(zipfile.ZipInfo('f%d' % index, date_time=(2024, 1, 1, 0, 0, 0)), b'')
            """, fileName: fileName, arguments: [String(count)])
    }

    /// An archive whose central directory lists `copies` entries (`Records00.json`, …) that all
    /// point at one local header and one deflated stream of `bytes` (the overlapping zip bomb:
    /// the stream is inflated once per entry). Written byte by byte with `struct` and `zlib`, since
    /// `zipfile` writes no such archive.
    public static func makeOverlapping(copies: Int, bytes: [UInt8], fileName: String = "overlap.zip") throws -> String {
        let folder = TestDirectory.makeFolder("zip")
        let dataPath = folder.appendingPathComponent("data").path
        try Data(bytes).write(to: URL(fileURLWithPath: dataPath))
        return try runPython("""
            import struct, sys, zlib
            data = open(sys.argv[3], 'rb').read()
            copies = int(sys.argv[2])
            deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
            packed = deflate.compress(data) + deflate.flush()
            crc = zlib.crc32(data)
            name = b'Records00.json'
            local = struct.pack('<IHHHHHIIIHH', 0x04034B50, 20, 0, 8, 0, 0, crc, len(packed), len(data), len(name), 0) + name + packed
            directory = b''
            for index in range(copies):
                entry = b'Records%02d.json' % index
                directory += struct.pack('<IHHHHHHIIIHHHHHII', 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(packed), len(data),
                                         len(entry), 0, 0, 0, 0, 0, 0) + entry
            end = struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, copies, copies, len(directory), len(local), 0)
            open(sys.argv[1], 'wb').write(local + directory + end)
            """, fileName: fileName, arguments: [String(copies), dataPath])
    }

    /// Runs `script` with the new archive's path as `argv[1]` and then `arguments`.
    private static func runPython(_ script: String, fileName: String, arguments: [String]) throws -> String {
        let archivePath = TestDirectory.makeFolder("zip").appendingPathComponent(fileName).path
        try python(script, arguments: [archivePath] + arguments)
        return archivePath
    }

    /// Runs `python3 -c script arguments…`. - Throws: `PythonFailed` with what it wrote to stderr.
    private static func python(_ script: String, arguments: [String]) throws {
        let result = try ChildProcess.run("python3", ["-c", script] + arguments)
        guard result.status == 0 else { throw PythonFailed(description: "python3 failed: \(result.errorText)") }
    }

    /// Text that deflates well and is long enough to need many reads.
    public static func text(lines: Int) -> [UInt8] {
        Array((0..<lines).map { "line \($0): 52.5163,13.3777 — Brandenburger Tor\n" }.joined().utf8)
    }

    /// Bytes that do not deflate (a fixed pseudo-random sequence, as a photo would be).
    public static func noise(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }
}

