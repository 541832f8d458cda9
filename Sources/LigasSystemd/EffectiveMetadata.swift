import Logging

/// The metadata of one log call: handler metadata, overridden by the metadata provider, overridden by
/// the call's own metadata (the order swift-log's StreamLogHandler uses). Walked in place rather than
/// merged into a new dictionary, so a log call does not allocate one.
struct EffectiveMetadata {
    let handler: Logger.Metadata
    let provided: Logger.Metadata
    let explicit: Logger.Metadata

    init(handler: Logger.Metadata, provider: Logger.MetadataProvider?, explicit: Logger.Metadata?) {
        self.handler = handler
        self.provided = provider?.get() ?? [:]
        self.explicit = explicit ?? [:]
    }

    func forEach(_ body: (String, Logger.MetadataValue) -> Void) {
        for (key, value) in explicit { body(key, value) }
        for (key, value) in provided where explicit[key] == nil { body(key, value) }
        for (key, value) in handler where explicit[key] == nil && provided[key] == nil { body(key, value) }
    }

    func contains(_ key: String) -> Bool {
        explicit[key] != nil || provided[key] != nil || handler[key] != nil
    }

    /// `logger.error("…", error: someError)` has no metadata key of its own; it is shown as `error`
    /// (→ `LIGAS_ERROR`) unless the call already set that key.
    static let errorKey = "error"
}
