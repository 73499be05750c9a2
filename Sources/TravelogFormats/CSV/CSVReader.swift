/// Reads location history from CSV: GPSLogger's files, Google Timeline CSV exports, database dumps
/// with a WKT `geom` column, and any file whose header names latitude and longitude columns.
///
/// The first row that is not blank is the header; its separator (`,`, `;` or tab) is the file's
/// (see `CSVRowReader` for the quoting rules). `CSVColumnMap` lists the names understood. Each
/// following row becomes:
/// - a `.visit` when a `Type` column says `Visit` (Google Timeline CSV): arrival from the time
///   column (`Start Time`), departure from `End Time`, with `Name`, `Address` and `PlaceId`;
/// - otherwise a `.point` of track 0, segment 0 (a Google Timeline `Activity` row becomes the
///   point where and when it started; its `Name`, the activity type, is not kept), timed when the
///   header has a time column and untimed when it has none;
/// - a `.rejected` record, at the field's line and column, when the row is wrong: another number
///   of fields than the header, an empty or out-of-range coordinate, an empty or unparsable time,
///   a number that is not one, a course above 360°, a departure before the arrival.
///
/// Times go through `TimestampParser` (ISO 8601, `yyyy-MM-dd HH:mm:ss`, epoch seconds or
/// milliseconds); a time column holding only the time of day is joined with a `date` column.
/// Negative accuracies and speeds mean unknown, as in `Location`.
/// In a file separated by `;` or tabs, numbers may use a decimal comma.
public struct CSVReader: LocationFileReader {
    private var rows: CSVRowReader
    private var row = CSVRow()
    /// The header's columns, known once the first record has been asked for.
    public private(set) var columns: CSVColumnMap?

    /// - Parameters:
    ///   - source: where the bytes come from.
    ///   - separator: the field separator; `nil` to detect it from the header.
    ///   - blockSizeBytes: how much to read from the source at a time.
    public init(source: any ByteSource, separator: UInt8? = nil, blockSizeBytes: Int = 1 << 20) {
        rows = CSVRowReader(source: source, separator: separator, blockSizeBytes: blockSizeBytes)
    }

    public var bytesConsumed: Int { rows.bytesConsumed }

    /// The next record, or `nil` at the end of the file.
    /// - Throws: `FormatError.truncated` for an input without a header row or with a quote left
    ///   open; `.unexpected` for a header without coordinate columns (at the header's first field)
    ///   or text after a closing quote.
    public mutating func next() throws(FormatError) -> FormatRecord? {
        if columns == nil { try readHeader() }
        guard let columns, try rows.next(into: &row) else { return nil }
        let decimalComma = rows.separator != UInt8(ascii: ",")
        do throws(RejectedRecord) {
            return try row.withView { (fields) throws(RejectedRecord) in
                try CSVRecordBuilder(fields: fields, columns: columns, decimalComma: decimalComma).record()
            }
        } catch {
            return .rejected(error.rejection)
        }
    }

    private mutating func readHeader() throws(FormatError) {
        guard try rows.next(into: &row) else {
            throw .truncated(SourcePosition(byteOffset: rows.bytesConsumed, line: 1, column: 1),
                             expected: "a header row naming the columns")
        }
        let names = (0..<row.count).map { Self.trimmed(row.string($0)) }
        guard let map = CSVColumnMap(names: names) else {
            var found = "the columns " + names.map { "'\($0)'" }.joined(separator: ", ")
            if found.utf8.count > 200 { found = String(found.prefix(200)) + "…" }
            throw .unexpected(row.position(ofField: 0), expected: CSVColumnMap.expectedColumns, found: found)
        }
        columns = map
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}
