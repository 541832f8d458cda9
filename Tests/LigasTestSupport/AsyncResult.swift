/// `Result(catching:)` for async work: lets a test tear down real servers before rethrowing.
public func asyncResult<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
