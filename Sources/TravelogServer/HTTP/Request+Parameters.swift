import Hummingbird

extension Request {
    /// A whole-number query parameter within `range`; `fallback` when absent.
    /// - Throws: a 400 naming the range, for anything else (the OpenAPI document says the same).
    func integerQuery(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(APIError) -> Int {
        guard let text = query(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest("\(name) '\(text)': expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A query parameter that is one of `choices`; `fallback` when absent. - Throws: a 400 listing them.
    func choiceQuery(_ name: String, _ choices: [String], default fallback: String) throws(APIError) -> String {
        guard let text = query(name) else { return fallback }
        guard choices.contains(text) else {
            throw .badRequest("\(name) '\(text)': expected one of \(choices.joined(separator: ", "))")
        }
        return text
    }
}
