import Foundation

/// The OpenAPI 3.1 description of the HTTP API (`Web/openapi.yaml`), served at
/// `/api/openapi.yaml`. A test keeps its paths in step with the router's.
public enum OpenAPIDocument {
    public static let yaml: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "Web")
                ?? Bundle.module.url(forResource: "openapi", withExtension: "yaml") else { return Data() }
        return (try? Data(contentsOf: url)) ?? Data()
    }()
}
