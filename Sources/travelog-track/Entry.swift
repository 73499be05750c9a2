import TravelogTrackCLI

/// `travelog-track`: `travelog track` as its own small executable (see `LeanTracker` in `travelog`).
@main
enum Entry {
    static func main() async {
        await TrackerCommandLine.main(trackArguments: Array(CommandLine.arguments.dropFirst()))
    }
}
