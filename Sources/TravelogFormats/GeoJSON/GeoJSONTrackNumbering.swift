/// Numbers the tracks of a GeoJSON file: each line feature is a track of its own, and a run of
/// timed Point features (an Overland batch, a GPS app's export) is one track.
struct GeoJSONTrackNumbering {
    private var nextTrack = 0
    private var pointRun: Int?

    /// The track of a timed Point feature: the current run's.
    mutating func pointTrack() -> Int {
        if let pointRun { return pointRun }
        defer { nextTrack += 1 }
        pointRun = nextTrack
        return nextTrack
    }

    /// A new track for a line or a timed MultiPoint; it ends the current run of Points.
    mutating func newTrack() -> Int {
        pointRun = nil
        defer { nextTrack += 1 }
        return nextTrack
    }
}
