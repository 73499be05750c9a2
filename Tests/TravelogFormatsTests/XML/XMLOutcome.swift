import TravelogFormats

/// The outcome of reading a whole document: its events (text parts merged), or its error.
enum XMLOutcome: Equatable {
    case events([String])
    case failure(XMLSyntaxError)

    init(_ source: any ByteSource, options: XMLParserOptions = .init()) {
        do {
            self = try .events(XMLEventRecorder.events(of: XMLPullParser(source: source, options: options), mergingText: true))
        } catch let error as XMLSyntaxError {
            self = .failure(error)
        } catch {
            self = .events(["unexpected error \(error)"])
        }
    }
}
