extension StoredRegion {
    /// The most regions a user may have. Core Location monitors at most 20 per app on a device;
    /// the server evaluates every region on every fix of every device of the user (a grid finds
    /// the few near a fix, but regions that overlap are each checked), so it allows many more
    /// than a phone, and still few enough that one user's regions cannot make every later ingest
    /// slow: 5,000 waypoints in one OwnTracks post made each later post of that user 100× slower.
    public static let maximumPerUser = 1_000
}
