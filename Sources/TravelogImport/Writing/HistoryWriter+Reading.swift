import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

extension IncomingItem {
    /// What a format reader's record is for the writer; `index` counts the records of the input.
    public init(_ record: FormatRecord, index: Int, bytes: Range<Int>) {
        switch record {
        case .point(let point):
            if case .route = point.kind {
                self.init(.passedOver(Self.routePointDescription), position: "item \(index)", raw: .range(bytes))
            } else if let location = point.position.location {
                self.init(.location(location), index: index, byteOffset: bytes.lowerBound, raw: .range(bytes))
                batteryPercent = point.batteryPercent
                isCharging = point.isCharging
                phoneStatus = point.phoneStatus
                labels = point.keptLabels
            } else {
                self.init(.refused("a point without a time cannot be stored"), index: index, byteOffset: bytes.lowerBound,
                          raw: .range(bytes))
            }
        case .visit(let visit):
            self.init(.visit(visit), position: "item \(index)", raw: .range(bytes))
        case .rejected(let rejection):
            self.init(.refused(rejection.reason.description), position: "item \(index) (\(rejection.position))", raw: .range(bytes))
        }
    }

    /// How route points are named among the records passed over.
    public static let routePointDescription = "route point (a planned route, not where you went)"
}

extension HistoryWriter {
    /// Writes what a format reader finds in a request body.
    ///
    /// `.keepValid` writes it a chunk at a time (memory stays at one chunk whatever the body's
    /// size); a body that breaks off (not well-formed from some byte on) keeps what came before the
    /// break and sets the rest aside as one item. `.atomic` reads everything first and stores it
    /// in one batch, or nothing.
    public func write(reading reader: inout some LocationFileReader, body: any RawBody, bodyByteCount: Int,
                      to target: inout DeviceTarget, source: LocationSource, visitSource: VisitSource, route: String,
                      policy: Policy, chunkSize: Int = 5_000, now: Date = Date(),
                      userAgent: String? = nil) async throws(HistoryWriteError) -> Outcome {
        var outcome = Outcome()
        var chunk: [IncomingItem] = []
        var index = 0
        var start = reader.bytesConsumed
        // While the body is read, the journal waits for it before taking the user's later fixes.
        let hold = journal?.writeBegan(userID: target.userID)
        defer { if let hold { journal?.writeEnded(hold) } }
        while true {
            let record: FormatRecord?
            do {
                record = try reader.next()
            } catch {
                if policy == .atomic { throw .unreadable("the body is not valid: \(error)") }
                let rest = start..<max(start, bodyByteCount)
                chunk.append(IncomingItem(.refused("the body is not valid from here on: \(error)"),
                                          position: "item \(index) (byte \(start))", raw: .range(rest)))
                break
            }
            guard let record else { break }
            let end = reader.bytesConsumed
            chunk.append(IncomingItem(record, index: index, bytes: start..<end))
            index += 1
            start = end
            if policy == .keepValid, chunk.count >= chunkSize {
                outcome.add(try await write(chunk, to: &target, source: source, visitSource: visitSource, route: route,
                                            policy: policy, body: body, hold: hold, now: now, userAgent: userAgent))
                chunk.removeAll(keepingCapacity: true)
            }
        }
        outcome.passedOver.merge(reader.skippedRecords, uniquingKeysWith: +)
        if !chunk.isEmpty {
            outcome.add(try await write(chunk, to: &target, source: source, visitSource: visitSource, route: route,
                                        policy: policy, body: body, hold: hold, now: now, userAgent: userAgent))
        }
        return outcome
    }
}
