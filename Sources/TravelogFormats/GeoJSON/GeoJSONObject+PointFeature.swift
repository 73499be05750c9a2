/// The features of the script API's batch (`POST /api/v1/locations`), which its OpenAPI document
/// describes exactly (`PointFeatureCollection`), unlike the GeoJSON files found in the wild.
extension GeoJSONObject {
    /// What keeps this object from being a feature of the script API's batch: a `type` other than
    /// `Feature`, or a geometry that is not a Point of one position of two or three JSON numbers.
    /// `nil` when it is one (a feature without geometry is one: it is skipped), and when the object
    /// has a problem of its own, which the feature's records report as they do for a file.
    var pointFeatureProblem: RecordRejection? {
        guard problem == nil else { return nil }
        guard isFeature else {
            if let typeName = own.typeName {
                return RecordRejection(position: start, reason: .invalidValue(field: "type", value: "'\(typeName)', not 'Feature'"))
            }
            return own.problem ?? RecordRejection(position: start, reason: .missingField("type"))
        }
        guard let geometry else { return nil }
        if let problem = geometry.problem { return problem }
        guard geometry.kind == .point else {
            return RecordRejection(position: geometry.start, reason: .invalidValue(
                field: "geometry", value: "a \(geometry.typeName ?? "geometry"), not a Point"))
        }
        guard geometry.positions.count == 1, geometry.positionDepth == 1, !geometry.hasLoosePosition else {
            return RecordRejection(position: geometry.start, reason: .invalidValue(
                field: "coordinates", value: "not one position of two or three numbers"))
        }
        if geometry.hasWrappedLongitude {
            return RecordRejection(position: geometry.start, reason: .invalidValue(
                field: "coordinates", value: "a longitude outside -180…180"))
        }
        return nil
    }
}
