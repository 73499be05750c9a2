import TravelogCore

/// What a reader may need to know beyond the bytes.
public struct ReaderOptions: Hashable, Sendable {
    /// The UTC date for streams that carry none (NMEA GGA-only logs): `travelog import --date`.
    public var date: CivilDate?

    public init(date: CivilDate? = nil) {
        self.date = date
    }
}
