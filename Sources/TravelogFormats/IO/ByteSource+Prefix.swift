extension ByteSource {
    /// Reads up to `count` bytes (fewer only at the end of input).
    public mutating func readBytes(upTo count: Int) throws(FormatError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            var readError: FormatError?
            let read = bytes.withUnsafeMutableBytes { buffer in
                do throws(FormatError) {
                    return try self.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                } catch {
                    readError = error
                    return 0
                }
            }
            if let readError { throw readError }
            if read == 0 { break }
            filled += read
        }
        return Array(bytes[..<filled])
    }
}
