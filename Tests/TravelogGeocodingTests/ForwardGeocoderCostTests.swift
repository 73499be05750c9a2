import Testing
@testable import TravelogGeocoding

/// Issue 25, finding 5: 4,000 words took 64 s, because every place found for every run of words
/// was scored against every word of the text. The work is counted, never timed.
@Suite("forward geocoding costs what the text's words do, not their square")
struct ForwardGeocoderCostTests {
    static let geocoder: ForwardGeocoder? = try? ForwardGeocoder(gazetteer: GazetteerFixture.load())

    /// The qualifier steps of a search, per place scored.
    static func stepsPerPlace(_ text: String) throws -> Double {
        let geocoder = try #require(Self.geocoder)
        var work = ForwardGeocoder.SearchWork()
        _ = geocoder.matches(for: text, limit: 5, work: &work)
        try #require(work.placesScored > 0)
        return Double(work.qualifierSteps) / Double(work.placesScored)
    }

    @Test("scoring a place takes as many steps for 2,000 words as for 20", arguments: [
        "Paris ", "Paris France ", "Paris, ", "Springfield IL ", "paris fr usa ",
    ])
    func scoringStepsDoNotGrowWithTheText(repeated: String) throws {
        let short = try Self.stepsPerPlace(String(repeating: repeated, count: 20))
        let long = try Self.stepsPerPlace(String(repeating: repeated, count: 2_000))
        // A place has at most seven qualifier phrases; each is looked for a bounded number of times.
        #expect(long <= 64, "\(long) steps per place scored for 2,000 repetitions, \(short) for 20")
    }
}
