import Foundation

/// Sets (a value) or unsets (nil) environment variables around `body`, then puts back what was there.
/// The environment is process-wide: only call this from tests in `ProcessWideStateTests`, which run
/// one at a time.
@discardableResult
func withEnvironment<T>(_ values: [String: String?], _ body: () throws -> T) rethrows -> T {
    let saved = values.keys.map { key in (key, getenv(key).map { String(cString: $0) }) }
    for (key, value) in values { set(key, value) }
    defer { for (key, value) in saved { set(key, value) } }
    return try body()
}

private func set(_ key: String, _ value: String?) {
    if let value { setenv(key, value, 1) } else { unsetenv(key) }
}
