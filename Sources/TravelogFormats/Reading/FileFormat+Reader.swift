extension FileFormat {
    /// A reader of this format over a byte source.
    /// - Throws: `FormatError.unrecognizedFormat` for a format without a reader.
    public func makeReader(source: any ByteSource, options: ReaderOptions = ReaderOptions()) throws(FormatError)
        -> any LocationFileReader {
        switch self {
        case .googleRecords: GoogleRecordsReader(source: source)
        case .googleSemantic: GoogleSemanticReader(source: source)
        case .googleTimeline: GoogleTimelineReader(source: source)
        case .googleTimelineIOS: GoogleTimelineIOSReader(source: source)
        default:
            throw .unrecognizedFormat("\(displayName) files cannot be read yet")
        }
    }
}
