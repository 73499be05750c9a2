import Foundation
import TravelogFormats
import TravelogStore

extension JournalVisit {
    /// The radius of a visit whose source gives none, metres.
    public static let defaultDescribedRadiusMeters = 50.0

    /// A stay a file or an app described itself (Google's place visits, Overland's visit actions).
    public init(_ visit: FormatVisit, deviceID: DeviceID, source: VisitSource) {
        self.init(deviceID: deviceID, source: source, arrival: visit.arrival, departure: visit.departure,
                  center: visit.coordinate, radiusMeters: visit.radiusMeters ?? Self.defaultDescribedRadiusMeters,
                  locationCount: 1, name: visit.name, address: visit.address, externalPlaceID: visit.placeIdentifier)
    }
}

extension FileFormat {
    /// The source of the visits a file of this format describes.
    public var visitSource: VisitSource {
        switch self {
        case .googleSemantic, .googleTimeline, .googleTimelineIOS, .googleRecords: .google
        case .geojson: .overland
        default: .file
        }
    }
}

extension ImportReport {
    /// The stays the file described, for the journal (with the source its format implies).
    public func journalVisits(deviceID: DeviceID) -> [JournalVisit] {
        let source = format?.visitSource ?? .file
        return visits.map { JournalVisit($0, deviceID: deviceID, source: source) }
    }
}
