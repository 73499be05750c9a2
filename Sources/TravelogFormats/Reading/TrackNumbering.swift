/// Numbers tracks and segments in file order, counting only those that yield a point: a track or
/// segment gets its number with its first point, so empty ones take none. Shared by the readers
/// whose files nest points in tracks and segments (GPX, KML).
struct TrackNumbering {
    private var tracksNumbered = 0
    private var currentTrack: Int?
    private var segmentsNumbered = 0
    private var currentSegment: Int?

    /// A track begins (or ends): the next point opens a new track, whose segments count from 0.
    mutating func startTrack() {
        currentTrack = nil
        currentSegment = nil
        segmentsNumbered = 0
    }

    /// A segment begins (or ends): the next point opens a new segment of the current track.
    mutating func startSegment() {
        currentSegment = nil
    }

    /// The kind of the next track point, numbering its track and segment if it is their first.
    mutating func nextTrackPoint() -> FormatPoint.Kind {
        let track = currentTrack ?? tracksNumbered
        if currentTrack == nil {
            tracksNumbered += 1
            currentTrack = track
        }
        let segment = currentSegment ?? segmentsNumbered
        if currentSegment == nil {
            segmentsNumbered += 1
            currentSegment = segment
        }
        return .track(track: track, segment: segment)
    }
}
