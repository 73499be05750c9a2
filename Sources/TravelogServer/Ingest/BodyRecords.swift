import Foundation
import TravelogCore
import TravelogFormats

/// A request body read with one of the file readers, all or nothing: the first wrong record makes
/// the whole request a 400 that says which record, where, and what was wrong.
struct BodyRecords {
    var locations: [Location] = []
    var visits: [FormatVisit] = []
    /// Messages that are not locations (OwnTracks transitions, cards…), by kind.
    var skipped: [String: Int] = [:]

    static func read(_ bytes: [UInt8], as format: FileFormat) throws(APIError) -> BodyRecords {
        var result = BodyRecords()
        var index = 0
        do {
            var reader = try format.makeReader(source: MemoryByteSource(bytes))
            while let record = try reader.next() {
                defer { index += 1 }
                switch record {
                case .point(let point):
                    guard let location = point.position.location else {
                        throw APIError.badRequest("item \(index): a location without a time cannot be stored")
                    }
                    result.locations.append(location)
                case .visit(let visit):
                    result.visits.append(visit)
                case .rejected(let rejection):
                    throw APIError.badRequest("item \(index) (\(rejection.position)): \(rejection.reason)")
                }
            }
            result.skipped = reader.skippedRecords
        } catch let error as APIError {
            throw error
        } catch {
            throw .badRequest("the body is not valid \(format.displayName): \(error)")
        }
        return result
    }
}
