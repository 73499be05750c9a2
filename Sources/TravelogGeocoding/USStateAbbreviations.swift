/// The two-letter postal abbreviations of the states of the United States and of its capital,
/// with the state's name as the gazetteer spells its first-level division (GeoNames; the capital
/// is "Washington, D.C."). Source: USPS Publication 28, appendix B.
enum USStateAbbreviations {
    /// Abbreviation (upper case) → state name.
    static let stateNames: [String: String] = [
        "AK": "Alaska", "AL": "Alabama", "AR": "Arkansas", "AZ": "Arizona",
        "CA": "California", "CO": "Colorado", "CT": "Connecticut", "DC": "Washington, D.C.",
        "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii",
        "IA": "Iowa", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana",
        "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "MA": "Massachusetts",
        "MD": "Maryland", "ME": "Maine", "MI": "Michigan", "MN": "Minnesota",
        "MO": "Missouri", "MS": "Mississippi", "MT": "Montana", "NC": "North Carolina",
        "ND": "North Dakota", "NE": "Nebraska", "NH": "New Hampshire", "NJ": "New Jersey",
        "NM": "New Mexico", "NV": "Nevada", "NY": "New York", "OH": "Ohio",
        "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island",
        "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
        "UT": "Utah", "VA": "Virginia", "VT": "Vermont", "WA": "Washington",
        "WI": "Wisconsin", "WV": "West Virginia", "WY": "Wyoming",
    ]

    /// The abbreviation of a state name, folded (lower case), as a qualifier matches it.
    static let foldedAbbreviationByStateKey: [String: String] = Dictionary(
        uniqueKeysWithValues: stateNames.map { (PlaceNameFolding.key($0.value), $0.key.lowercased()) })
}
