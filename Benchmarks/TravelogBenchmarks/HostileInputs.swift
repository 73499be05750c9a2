import Foundation
import TravelogFormats

/// The bodies and archives of `hostile` (issue 25's findings 4–9), made at run time: small ones in
/// memory, the multipart upload written piece by piece as it is sent, the ZIP archives once into the
/// work folder (by `python3`: its `zipfile` deflates, a few lines of `struct` lay out the central
/// directories no honest tool writes).
enum HostileInputs {
    /// Stopped sending a body because the run's time was up.
    struct OutOfTime: Error, CustomStringConvertible {
        var description: String { "gave up sending the body (the run's time was up)" }
    }

    // MARK: Small bodies

    /// `q` for forward geocoding: `words` place-name words joined by `+` (4,000 make about 24 KB).
    static func forwardGeocodeQuery(words: Int) -> String {
        let vocabulary = ["san", "new", "port", "saint", "lake", "north", "city", "fort", "mount", "west", "east",
                          "south", "river", "bay", "hill", "spring", "park", "valley", "island", "beach"]
        return (0..<words).map { vocabulary[$0 % vocabulary.count] }.joined(separator: "+")
    }

    /// An OwnTracks `waypoints` message with `count` circular regions 100 m across, 1 km apart.
    static func owntracksWaypoints(count: Int) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.append(#"{"_type":"waypoints","waypoints":["#)
        for index in 0..<count {
            if index > 0 { buffer.append(",") }
            buffer.append(#"{"_type":"waypoint","desc":"Region "#)
            buffer.append(Int64(index))
            buffer.append(#"","lat":"#)
            buffer.append(fixed: 46.0 + Double(index / 100) * 0.01)
            buffer.append(#","lon":"#)
            buffer.append(fixed: 7.0 + Double(index % 100) * 0.013)
            buffer.append(#","rad":100,"tst":"#)
            buffer.append(ServerPayloads.startEpochSeconds - 86_400 + Int64(index))
            buffer.append("}")
        }
        buffer.append("]}")
        return buffer.bytes
    }

    /// `{"ids":[first, repeated, repeated, …]}` with `repeated` `times` times.
    static func mergeBody(first: Int64, repeated: Int64, times: Int) -> [UInt8] {
        Array(("{\"ids\":[\(first)" + String(repeating: ",\(repeated)", count: times) + "]}").utf8)
    }

    /// A CSV day of `stays` stays of 30 minutes, 5.5 km apart, a fix a minute (10 minutes of
    /// travel between them), on 2023-06-01, long before the posts of the run: visits to merge.
    static func staysCSV(stays: Int) -> [UInt8] {
        let startMilliseconds: Int64 = 1_685_606_400_000
        var buffer = ByteBuffer()
        buffer.append("time,lat,lon\n")
        var minute: Int64 = 0
        func fix(_ latitude: Double) {
            buffer.appendISO8601(milliseconds: startMilliseconds + minute * 60_000)
            buffer.append(",")
            buffer.append(fixed: latitude)
            buffer.append(",8.0000\n")
            minute += 1
        }
        for stay in 0..<stays {
            let latitude = 47.0 + Double(stay) * 0.05
            for _ in 0...30 { fix(latitude) }
            for step in 1...10 where stay + 1 < stays { fix(latitude + 0.005 * Double(step)) }
        }
        return buffer.bytes
    }

    // MARK: Multipart

    /// A `multipart/form-data` upload of `parts` files of `partBytes` each (not location history),
    /// written piece by piece as it is sent: it is never held whole.
    struct MultipartUpload: Sendable {
        var parts: Int
        var partBytes: Int
        let boundary = "travelog-hostile-7f3a9c"

        var contentType: String { "multipart/form-data; boundary=\(boundary)" }

        private func partHead(_ index: Int) -> [UInt8] {
            Array(("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"part-\(index).txt\"\r\n"
                   + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        }
        private var closing: [UInt8] { Array("--\(boundary)--\r\n".utf8) }

        /// The body's length, bytes.
        var length: Int {
            (0..<parts).reduce(closing.count) { $0 + partHead($1).count + partBytes + 2 }
        }

        /// Hands the body to `write` in pieces of at most 64 KB.
        /// - Throws: `OutOfTime` once the monotonic clock passes `deadlineNanoseconds`, or what `write` throws.
        func write(until deadlineNanoseconds: UInt64, _ write: ([UInt8]) throws -> Void) throws {
            let line = Array("this part is not a location file; it is here to take memory.\n".utf8)
            let piece = Array((0..<(1 << 16)).map { line[$0 % line.count] })
            for index in 0..<parts {
                guard BlockingThreads.nowNanoseconds() < deadlineNanoseconds else { throw OutOfTime() }
                try write(partHead(index))
                var remaining = partBytes
                while remaining > 0 {
                    let count = min(remaining, piece.count)
                    try write(count == piece.count ? piece : Array(piece[..<count]))
                    remaining -= count
                }
                try write(Array("\r\n".utf8))
            }
            try write(closing)
        }
    }

    /// Sends a file as a request's body, 1 MB at a time.
    static func sendFile(_ url: URL, on connection: HTTPConnection, _ method: String, _ path: String,
                         headers: [(String, String)], until deadlineNanoseconds: UInt64) throws -> HTTPConnection.Response {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let length = Int(try handle.seekToEnd())
        try handle.seek(toOffset: 0)
        return try connection.send(method, path, headers: headers, bodyLength: length) { write in
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                guard BlockingThreads.nowNanoseconds() < deadlineNanoseconds else { throw OutOfTime() }
                try write(Array(chunk))
            }
        }
    }

    // MARK: ZIP archives

    /// A ZIP archive of `entries` empty files (ZIP64, as more than 65,535 need): one local header,
    /// then a central directory of `entries` records that all point at it (about 53 bytes an
    /// entry: 2 million make about 106 MB). Made once into `directory`.
    static func manyEntriesArchive(in directory: URL, entries: Int) throws -> URL {
        let url = directory.appendingPathComponent("hostile-\(entries)-entries.zip")
        guard !FileManager.default.fileExists(atPath: url.path) else { return url }
        _ = try CommandOutput.of(command: "python3", ["-c", """
            import os, struct, sys
            path, count = sys.argv[1], int(sys.argv[2])
            partial = path + '.partial'
            def name(i): return b'%07d' % i
            with open(partial, 'wb') as f:
                # APPNOTE 4.3.7 local header: stored, no data, DOS date 1980-01-01.
                f.write(struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, 0, 0, 0x21, 0, 0, 0, 7, 0) + name(0))
                cd_offset = f.tell()
                for start in range(0, count, 10000):
                    f.write(b''.join(struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, 0, 0, 0x21, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0)
                                     + name(i) for i in range(start, min(start + 10000, count))))
                cd_end = f.tell()
                # APPNOTE 4.3.14-4.3.16: the ZIP64 end record, its locator, the end record.
                f.write(struct.pack('<IQHHIIQQQQ', 0x06064b50, 44, 45, 45, 0, 0, count, count, cd_end - cd_offset, cd_offset))
                f.write(struct.pack('<IIQI', 0x07064b50, 0, cd_end, 1))
                f.write(struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, min(count, 0xFFFF), min(count, 0xFFFF),
                                    min(cd_end - cd_offset, 0xFFFFFFFF), min(cd_offset, 0xFFFFFFFF), 0))
            os.rename(partial, path)
            """, url.path, String(entries)])
        return url
    }

    /// A ZIP archive whose central directory lists `entries` CSV files that all point at one
    /// deflated member of about `memberBytes` (the same row over and over: some 128 KB compressed
    /// for 128 MiB): reading every entry inflates `entries` × `memberBytes`. Made once into `directory`.
    static func overlappingArchive(in directory: URL, entries: Int, memberBytes: Int) throws -> URL {
        let url = directory.appendingPathComponent("hostile-\(entries)x\(memberBytes >> 20)MiB-overlapping.zip")
        guard !FileManager.default.fileExists(atPath: url.path) else { return url }
        _ = try CommandOutput.of(command: "python3", ["-c", """
            import os, struct, sys, zipfile
            path, entries, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            partial = path + '.partial'
            row = b'2020-06-01T12:00:00Z,47.3769,8.5417\\n'
            chunk = row * ((1 << 20) // len(row))
            with zipfile.ZipFile(partial, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                with z.open('00.csv', 'w') as member:
                    member.write(b'time,lat,lon\\n')
                    written = 13
                    while written + len(chunk) <= size:
                        member.write(chunk)
                        written += len(chunk)
                    member.write(row * ((size - written) // len(row)))
            data = open(partial, 'rb').read()
            end = data.rindex(b'PK\\x05\\x06')
            cd_size, cd_offset = struct.unpack('<II', data[end + 12:end + 20])
            record = data[cd_offset:cd_offset + cd_size]
            name_length = struct.unpack('<H', record[28:30])[0]
            records = b''.join(record[:46] + b'%02d.csv' % i + record[46 + name_length:] for i in range(entries))
            with open(partial, 'wb') as f:
                f.write(data[:cd_offset] + records
                        + struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, entries, entries, len(records), cd_offset, 0))
            os.rename(partial, path)
            """, url.path, String(entries), String(memberBytes)])
        return url
    }
}
