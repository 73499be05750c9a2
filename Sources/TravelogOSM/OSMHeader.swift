/// An extract's header block (osmformat.proto's `HeaderBlock`): its bounding box and the features
/// a reader must or may understand.
public struct OSMHeader: Equatable, Sendable {
    /// The area the extract was cut from, in degrees (`nil` when the file does not say).
    public struct BoundingBox: Equatable, Sendable {
        public let minimumLatitude: Double
        public let minimumLongitude: Double
        public let maximumLatitude: Double
        public let maximumLongitude: Double

        public init(minimumLatitude: Double, minimumLongitude: Double, maximumLatitude: Double, maximumLongitude: Double) {
            self.minimumLatitude = minimumLatitude
            self.minimumLongitude = minimumLongitude
            self.maximumLatitude = maximumLatitude
            self.maximumLongitude = maximumLongitude
        }
    }

    /// The features this reader implements; a file requiring any other is refused.
    public static let supportedRequiredFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    public let boundingBox: BoundingBox?
    public let requiredFeatures: [String]
    public let optionalFeatures: [String]
    public let writingProgram: String?
    public let source: String?
}

extension OSMHeader {
    /// Decodes an inflated `HeaderBlock`.
    /// - Throws: ``ProtobufFailure`` for bad bytes (the caller adds the block and message).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ProtobufFailure) -> OSMHeader {
        var reader = ProtobufReader(bytes)
        var box: BoundingBox?
        var required: [String] = []
        var optional: [String] = []
        var program: String?
        var source: String?
        while let (field, wireType) = try reader.nextField() {
            switch field {
            case 1:
                try reader.expect(wireType, .lengthDelimited, field: field)
                box = try decodeBox(reader.lengthDelimited())
            case 4, 5, 16, 17:
                try reader.expect(wireType, .lengthDelimited, field: field)
                let value = try reader.string(field: field)
                switch field {
                case 4: required.append(value)
                case 5: optional.append(value)
                case 16: program = value
                default: source = value
                }
            default:
                try reader.skip(field: field, wireType: wireType)
            }
        }
        return OSMHeader(boundingBox: box, requiredFeatures: required, optionalFeatures: optional,
                         writingProgram: program, source: source)
    }

    /// `HeaderBBox`: left, right, top, bottom as `sint64` nanodegrees, all required.
    private static func decodeBox(_ message: ProtobufReader) throws(ProtobufFailure) -> BoundingBox {
        var reader = message
        var values: [Int: Int64] = [:]
        while let (field, wireType) = try reader.nextField() {
            if (1...4).contains(field) {
                try reader.expect(wireType, .varint, field: field)
                values[field] = try reader.signedVarint()
            } else {
                try reader.skip(field: field, wireType: wireType)
            }
        }
        for field in 1...4 where values[field] == nil {
            throw ProtobufFailure(offset: message.position, problem: .missingField(field))
        }
        let degrees = { (field: Int) in Double(values[field] ?? 0) / 1e9 }
        return BoundingBox(minimumLatitude: degrees(4), minimumLongitude: degrees(1),
                           maximumLatitude: degrees(3), maximumLongitude: degrees(2))
    }
}
