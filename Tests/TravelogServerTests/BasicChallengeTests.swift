import HTTPTypes
import Testing
@testable import TravelogServer

@Suite("A 401 challenges for Basic credentials except from the page's own scripts")
struct BasicChallengeTests {
    @Test("apps, curl and navigations get WWW-Authenticate", arguments: [
        [:], ["Sec-Fetch-Mode": "navigate"], ["User-Agent": "OwnTracks/2.4"],
    ])
    func challenged(_ fields: [String: String]) {
        #expect(APIError.challengesBasic(Self.headers(fields)))
    }

    @Test("fetch and EventSource requests do not (the browser's dialog would hide the login form)", arguments: [
        ["Sec-Fetch-Mode": "cors"], ["Sec-Fetch-Mode": "same-origin"], ["X-Requested-With": "fetch"],
        ["Sec-Fetch-Mode": "navigate", "X-Requested-With": "fetch"],
    ])
    func notChallenged(_ fields: [String: String]) {
        #expect(!APIError.challengesBasic(Self.headers(fields)))
    }

    static func headers(_ fields: [String: String]) -> HTTPFields {
        var headers = HTTPFields()
        for (name, value) in fields { headers[HTTPField.Name(name)!] = value }
        return headers
    }
}
