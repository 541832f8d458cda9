import Foundation

/// The bundled sample dataset: LigaPro Serie A and Serie B laid out like the project's REST
/// contract, so a `file://` URL to it is a complete remote that needs no server.
public enum BundledSampleData {
    /// The directory to use as the `ligas-rest` base URL.
    public static var baseURL: URL {
        guard let url = Bundle.module.url(forResource: "SampleData", withExtension: nil) else {
            fatalError("the LigasSampleData resource bundle is missing SampleData/: a broken build")
        }
        return url
    }
}
