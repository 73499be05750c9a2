/// Which formats Travelog exports, and the writer for each.
extension FileFormat {
    /// The formats `makeWriter` can write.
    public static let writable: [FileFormat] = [.gpx, .kml, .geojson, .csv]

    /// Whether Travelog can export to this format.
    public var isWritable: Bool { Self.writable.contains(self) }

    /// The usual file name extension, without the dot (`gpx`, `kml`, `geojson`, `csv`), for the
    /// writable formats; `nil` for the others.
    public var exportFileExtension: String? {
        switch self {
        case .gpx: "gpx"
        case .kml: "kml"
        case .geojson: "geojson"
        case .csv: "csv"
        default: nil
        }
    }

    /// A streaming writer of this format into `sink`, or `nil` when Travelog does not write it.
    public func makeWriter(sink: any ByteSink, document: ExportDocument = ExportDocument()) -> (any LocationFileWriter)? {
        switch self {
        case .gpx: DocumentWriter(format: self, encoder: GPXEncoder(), sink: sink, document: document)
        case .kml: DocumentWriter(format: self, encoder: KMLEncoder(), sink: sink, document: document)
        case .geojson: DocumentWriter(format: self, encoder: GeoJSONEncoder(), sink: sink, document: document)
        case .csv: DocumentWriter(format: self, encoder: CSVEncoder(), sink: sink, document: document)
        default: nil
        }
    }
}
