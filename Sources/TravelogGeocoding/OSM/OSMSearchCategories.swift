import Foundation

/// English words people search with ("coffee", "atm") and the OSM tags they mean, and the English
/// label of a tag for results (wiki.openstreetmap.org/wiki/Map_features).
public enum OSMSearchCategories {
    /// Every category word (folded, singular) and the tags it finds, best first.
    public static let tagsByWord: [String: [String]] = {
        var table: [String: [String]] = [:]
        for (words, tags) in entries {
            for word in words { table[PlaceNameFolding.key(word), default: []] += tags }
        }
        return table
    }()

    /// The English label of a tag (`amenity=cafe` → "Café"); the value in words for others.
    public static func name(of category: String) -> String {
        if let label = labels[category] { return label }
        let value = category.split(separator: "=", maxSplits: 1).last.map(String.init) ?? category
        let words = value.replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// The tags a category word (or a `key=value`) means, `nil` for a word that is none. Plural "s"
    /// and "es" are dropped ("cafes", "pharmacies" → "pharmacy" is listed).
    public static func tags(for word: String) -> [String]? {
        if word.contains("=") { return [word] }
        let key = PlaceNameFolding.key(word)
        if let tags = tagsByWord[key] { return tags }
        if key.hasSuffix("ies"), let tags = tagsByWord[String(key.dropLast(3)) + "y"] { return tags }
        if key.hasSuffix("es"), let tags = tagsByWord[String(key.dropLast(2))] { return tags }
        if key.hasSuffix("s"), let tags = tagsByWord[String(key.dropLast())] { return tags }
        return nil
    }

    static let labels: [String: String] = [
        "amenity=cafe": "Café", "amenity=restaurant": "Restaurant", "amenity=fast_food": "Fast food", "amenity=bar": "Bar",
        "amenity=pub": "Pub", "amenity=biergarten": "Beer garden", "amenity=ice_cream": "Ice cream", "amenity=pharmacy": "Pharmacy",
        "amenity=atm": "ATM", "amenity=bank": "Bank", "amenity=dentist": "Dentist", "amenity=doctors": "Doctor",
        "amenity=clinic": "Clinic", "amenity=hospital": "Hospital", "amenity=parking": "Parking", "amenity=fuel": "Fuel station",
        "amenity=toilets": "Toilets", "amenity=post_office": "Post office", "amenity=library": "Library", "amenity=cinema": "Cinema",
        "amenity=theatre": "Theatre", "amenity=school": "School", "amenity=university": "University", "amenity=kindergarten": "Kindergarten",
        "amenity=police": "Police", "amenity=place_of_worship": "Place of worship", "amenity=bicycle_rental": "Bicycle rental",
        "amenity=car_rental": "Car rental", "amenity=taxi": "Taxi", "amenity=charging_station": "Charging station",
        "amenity=nightclub": "Nightclub", "amenity=marketplace": "Market", "amenity=veterinary": "Veterinary", "amenity=townhall": "Town hall",
        "amenity=community_centre": "Community centre", "amenity=arts_centre": "Arts centre", "amenity=ferry_terminal": "Ferry terminal",
        "shop=supermarket": "Supermarket", "shop=convenience": "Convenience store", "shop=bakery": "Bakery", "shop=butcher": "Butcher",
        "shop=clothes": "Clothes", "shop=shoes": "Shoes", "shop=books": "Books", "shop=hairdresser": "Hairdresser",
        "shop=florist": "Florist", "shop=bicycle": "Bicycle shop", "shop=electronics": "Electronics", "shop=optician": "Optician",
        "shop=kiosk": "Kiosk", "shop=alcohol": "Alcohol", "shop=department_store": "Department store", "shop=mall": "Shopping mall",
        "shop=jewelry": "Jewellery", "shop=gift": "Gifts", "shop=hardware": "Hardware", "shop=beauty": "Beauty",
        "tourism=hotel": "Hotel", "tourism=hostel": "Hostel", "tourism=guest_house": "Guest house", "tourism=museum": "Museum",
        "tourism=gallery": "Gallery", "tourism=attraction": "Attraction", "tourism=viewpoint": "Viewpoint", "tourism=artwork": "Artwork",
        "tourism=information": "Tourist information", "tourism=camp_site": "Camp site",
        "leisure=park": "Park", "leisure=playground": "Playground", "leisure=fitness_centre": "Gym", "leisure=sports_centre": "Sports centre",
        "leisure=swimming_pool": "Swimming pool", "leisure=garden": "Garden", "leisure=stadium": "Stadium", "leisure=marina": "Marina",
        "healthcare=dentist": "Dentist", "healthcare=doctor": "Doctor", "healthcare=pharmacy": "Pharmacy", "healthcare=hospital": "Hospital",
        "railway=station": "Station", "railway=halt": "Station", "railway=tram_stop": "Tram stop", "railway=subway_entrance": "Metro entrance",
        "public_transport=station": "Station", "historic=monument": "Monument", "historic=memorial": "Memorial", "historic=castle": "Castle",
        "office=company": "Office", "office=government": "Government office",
    ]

    /// The table: words people type, and the tags they mean.
    static let entries: [([String], [String])] = [
        (["coffee", "cafe", "café", "coffee shop", "espresso"], ["amenity=cafe"]),
        (["restaurant", "dinner", "lunch", "food"], ["amenity=restaurant", "amenity=fast_food"]),
        (["fast food", "burger", "pizza", "kebab"], ["amenity=fast_food", "amenity=restaurant"]),
        (["bar", "cocktail"], ["amenity=bar", "amenity=pub"]),
        (["pub", "beer"], ["amenity=pub", "amenity=bar", "amenity=biergarten"]),
        (["ice cream"], ["amenity=ice_cream"]),
        (["supermarket", "grocery", "groceries", "food store"], ["shop=supermarket", "shop=convenience"]),
        (["convenience", "convenience store"], ["shop=convenience", "shop=kiosk"]),
        (["kiosk"], ["shop=kiosk", "shop=convenience"]),
        (["bakery", "bread"], ["shop=bakery"]),
        (["butcher"], ["shop=butcher"]),
        (["pharmacy", "chemist", "drugstore"], ["amenity=pharmacy", "healthcare=pharmacy"]),
        (["atm", "cash", "cash machine"], ["amenity=atm"]),
        (["bank"], ["amenity=bank"]),
        (["dentist"], ["amenity=dentist", "healthcare=dentist"]),
        (["doctor", "doctors", "gp"], ["amenity=doctors", "healthcare=doctor", "amenity=clinic"]),
        (["clinic"], ["amenity=clinic", "amenity=doctors"]),
        (["hospital", "emergency"], ["amenity=hospital", "healthcare=hospital"]),
        (["parking", "car park"], ["amenity=parking"]),
        (["fuel", "gas", "petrol", "gas station", "petrol station", "fuel station"], ["amenity=fuel"]),
        (["charging", "charging station", "ev charging"], ["amenity=charging_station"]),
        (["toilet", "toilets", "restroom", "wc"], ["amenity=toilets"]),
        (["post office", "post"], ["amenity=post_office"]),
        (["library"], ["amenity=library"]),
        (["cinema", "movies", "movie theater"], ["amenity=cinema"]),
        (["theatre", "theater"], ["amenity=theatre"]),
        (["school"], ["amenity=school"]),
        (["university", "college"], ["amenity=university"]),
        (["kindergarten", "daycare"], ["amenity=kindergarten"]),
        (["police"], ["amenity=police"]),
        (["church", "place of worship", "mosque", "temple", "synagogue"], ["amenity=place_of_worship"]),
        (["bike rental", "bicycle rental", "city bike"], ["amenity=bicycle_rental"]),
        (["car rental"], ["amenity=car_rental"]),
        (["taxi"], ["amenity=taxi"]),
        (["nightclub", "club"], ["amenity=nightclub"]),
        (["market", "marketplace"], ["amenity=marketplace"]),
        (["vet", "veterinary"], ["amenity=veterinary"]),
        (["ferry", "ferry terminal"], ["amenity=ferry_terminal"]),
        (["clothes", "clothing", "fashion"], ["shop=clothes"]),
        (["shoes"], ["shop=shoes"]),
        (["books", "bookshop", "bookstore"], ["shop=books"]),
        (["hairdresser", "barber", "haircut"], ["shop=hairdresser"]),
        (["florist", "flowers"], ["shop=florist"]),
        (["bicycle shop", "bike shop"], ["shop=bicycle"]),
        (["electronics"], ["shop=electronics"]),
        (["optician", "glasses"], ["shop=optician"]),
        (["alcohol", "liquor", "wine shop"], ["shop=alcohol"]),
        (["department store"], ["shop=department_store"]),
        (["mall", "shopping mall", "shopping centre", "shopping center"], ["shop=mall"]),
        (["jewelry", "jewellery"], ["shop=jewelry"]),
        (["hardware"], ["shop=hardware"]),
        (["hotel"], ["tourism=hotel"]),
        (["hostel"], ["tourism=hostel"]),
        (["guest house", "b&b", "bed and breakfast"], ["tourism=guest_house"]),
        (["museum"], ["tourism=museum"]),
        (["gallery", "art gallery"], ["tourism=gallery"]),
        (["attraction", "sight", "sights"], ["tourism=attraction"]),
        (["viewpoint", "view"], ["tourism=viewpoint"]),
        (["tourist information", "information"], ["tourism=information"]),
        (["park"], ["leisure=park"]),
        (["playground"], ["leisure=playground"]),
        (["gym", "fitness"], ["leisure=fitness_centre"]),
        (["swimming", "swimming pool", "pool"], ["leisure=swimming_pool"]),
        (["stadium"], ["leisure=stadium"]),
        (["marina"], ["leisure=marina"]),
        (["station", "train station", "railway station"], ["railway=station", "public_transport=station", "railway=halt"]),
        (["tram", "tram stop"], ["railway=tram_stop"]),
        (["metro", "subway"], ["railway=subway_entrance", "railway=station"]),
        (["monument", "memorial"], ["historic=monument", "historic=memorial"]),
    ]
}
