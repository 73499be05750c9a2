import ArgumentParser

@main
struct Travelog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travelog",
        abstract: "Self-hosted location history: geodesy, map geometry, import, a server and a journal.",
        subcommands: []
    )
}
