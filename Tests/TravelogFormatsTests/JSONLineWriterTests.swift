import Foundation
import Testing
import TravelogFormats

@Suite("JSONLineWriter: flat JSON objects with the writers' escaping and numbers")
struct JSONLineWriterTests {
    @Test("members are separated by commas, strings escaped, numbers trimmed, unknowns null")
    func object() throws {
        let writer = JSONLineWriter()
        writer.beginObject()
        writer.member("name", string: "Saint-Jean \"d'Acre\"\\\n\u{01}é")
        writer.member("none", string: nil)
        writer.member("latitude", number: 37.32300000000001, decimals: 7)
        writer.member("distanceMeters", number: 1038.5004, decimals: 3)
        writer.member("zero", number: -0.0, decimals: 3)
        writer.member("infinite", number: .infinity, decimals: 3)
        writer.member("nan", number: .nan, decimals: 3)
        writer.member("count", integer: -42)
        writer.endObject()
        let text = writer.takeText()
        #expect(text == #"{"name":"Saint-Jean \"d'Acre\"\\\n\u0001é","none":null,"latitude":37.323,"distanceMeters":1038.5,"zero":0,"infinite":null,"nan":null,"count":-42}"#)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "Saint-Jean \"d'Acre\"\\\n\u{01}é")
    }

    @Test("take hands over what was written since the last take, appended to the output")
    func take() {
        let writer = JSONLineWriter()
        var output = Array("[".utf8)
        writer.beginObject()
        writer.member("a", integer: 1)
        writer.endObject()
        writer.take(into: &output)
        writer.beginObject()
        writer.endObject()
        writer.take(into: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"[{"a":1}{}"#)
        #expect(writer.takeText() == "")
    }
}
