import Testing
import TravelogFormats

@Test("a source position names line, column and byte offset")
func sourcePositionDescription() {
    #expect(SourcePosition(byteOffset: 41, line: 3, column: 7).description == "line 3, column 7 (byte 41)")
}
