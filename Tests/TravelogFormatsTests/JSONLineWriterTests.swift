import Foundation
import Testing
import TravelogFormats

@Suite("JSONLineWriter: JSON objects with the writers' escaping and numbers")
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

    @Test("members may be objects and arrays, arrays hold numbers, arrays and objects, each separated by one comma")
    func nested() throws {
        let writer = JSONLineWriter()
        writer.beginObject()
        writer.member("a", integer: 1)
        writer.beginObject("point")
        writer.member("latitude", number: 60.1699, decimals: 7)
        writer.endObject()
        writer.beginArray("line")
        for pair in [[24.9, 60.1], [24.95, 60.15]] {
            writer.beginElementArray()
            for value in pair { writer.element(number: value, decimals: 7) }
            writer.endArray()
        }
        writer.endArray()
        writer.beginArray("empty")
        writer.endArray()
        writer.beginArray("steps")
        writer.beginElementObject()
        writer.member("b", string: "x")
        writer.endObject()
        writer.beginElementObject()
        writer.endObject()
        writer.endArray()
        writer.member("z", integer: 2)
        writer.endObject()
        let first = writer.takeText()
        #expect(first == #"{"a":1,"point":{"latitude":60.1699},"line":[[24.9,60.1],[24.95,60.15]],"empty":[],"steps":[{"b":"x"},{}],"z":2}"#)
        #expect(try JSONSerialization.jsonObject(with: Data(first.utf8)) is [String: Any])
        // A new line's object starts without a comma after the last one closed.
        writer.beginObject()
        writer.endObject()
        #expect(writer.takeText() == "{}")
    }
}
