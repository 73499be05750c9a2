import ArgumentParser

/// The lean `travelog-track` executable's root: `travelog track` alone, so a tracker running for
/// months maps none of the server, the stores or the renderer. `travelog track …` executes it with
/// the same arguments (after `track`), and its help and errors read as `travelog track`'s.
public struct TrackerCommandLine: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "travelog",
        abstract: "The location tracker of Travelog (`travelog track`).",
        subcommands: [TrackCommand.self])

    public init() {}

    /// Runs `travelog track` with the arguments that followed `track` (or `travelog-track`).
    public static func main(trackArguments: [String]) async {
        await main(["track"] + trackArguments)
    }
}
