import Foundation
import TravelogCore

/// What placing photos needs from a person's history: the fixes around an instant, the visits that
/// hold it, and the time zone of where the person was. The store's version is in the command line
/// (`travelog photos geotag`); tests give arrays.
public protocol PhotoHistory: Sendable {
    /// The last fix at or before `instant` and the first at or after it.
    func fixes(around instant: Date) async throws -> (before: Location?, after: Location?)
    /// The visits that hold `instant`.
    func visits(holding instant: Date) async throws -> [PhotoPlacer.Visit]
    /// The time zone where the person was at the fix nearest to `instant` within a day; `nil` when
    /// there is no fix then or no zone is known there.
    func timeZone(near instant: Date) async throws -> TimeZone?
}
