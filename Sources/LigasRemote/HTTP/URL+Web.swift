import FoundationEssentials

extension URL {
    /// Whether it names something on the web (http or https), rather than a local file.
    public var isWeb: Bool { ["http", "https"].contains(scheme?.lowercased()) }

    /// Its port, or its scheme's default one.
    var portOrDefault: Int? {
        if let port { return port }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
