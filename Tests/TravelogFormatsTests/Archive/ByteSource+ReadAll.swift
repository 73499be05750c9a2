import TravelogFormats

extension ByteSource {
    /// Reads everything left, `chunkBytes` at a time.
    mutating func readAll(chunkBytes: Int) throws(FormatError) -> [UInt8] {
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while true {
            var readError: FormatError?
            let count = chunk.withUnsafeMutableBytes { buffer in
                do throws(FormatError) { return try read(into: buffer) } catch {
                    readError = error
                    return 0
                }
            }
            if let readError { throw readError }
            if count == 0 { return all }
            all += chunk[..<count]
        }
    }
}
