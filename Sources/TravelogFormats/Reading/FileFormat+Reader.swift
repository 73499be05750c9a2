extension FileFormat {
    /// A reader of this format over a byte source (every format has one: the switch is exhaustive).
    /// - Throws: `FormatError` when the reader cannot start (an XML file whose encoding it cannot read).
    public func makeReader(source: any ByteSource, options: ReaderOptions = ReaderOptions()) throws(FormatError)
        -> any LocationFileReader {
        switch self {
        case .gpx: return try GPXReader(source: source)
        case .kml: return try KMLReader(source: source)
        case .csv: return CSVReader(source: source)
        case .geolife: return GeoLifeReader(source: source)
        case .nmea: return NMEAReader(source: source, options: NMEAReader.Options(date: options.date))
        case .googleRecords: return GoogleRecordsReader(source: source)
        case .googleSemantic: return GoogleSemanticReader(source: source)
        case .googleTimeline: return GoogleTimelineReader(source: source)
        case .googleTimelineIOS: return GoogleTimelineIOSReader(source: source)
        case .geojson: return GeoJSONReader(source: source)
        case .owntracks: return OwnTracksReader(source: source)
        case .gpsd: return GPSDLogReader(source: source)
        }
    }
}
