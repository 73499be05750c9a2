import ArgumentParser
import TravelogCLI

@main
enum Entry {
    static func main() async {
        await TravelogCommand.main()
    }
}
