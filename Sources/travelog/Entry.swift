import ArgumentParser
import TravelogCLI

@main
enum Entry {
    static func main() async {
        LeanTracker.execIfTracking(CommandLine.arguments)
        await TravelogCommand.main()
    }
}
