import Testing
import ArgumentParser
import TravelogCLI

@Test("the root command parses with no arguments")
func rootCommandParses() throws {
    _ = try TravelogCommand.parseAsRoot([])
}
