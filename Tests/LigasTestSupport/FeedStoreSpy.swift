import Foundation
import LigasDomain

/// An in-memory `FeedStore` that records what was asked of it and can be told to fail.
public final class FeedStoreSpy: FeedStore, Sendable {
    public enum Message: Hashable, Sendable {
        case retrieve(String), replace(String), delete(String), allFeeds
    }

    struct State {
        var feeds: [String: CachedFeed] = [:]
        var messages: [Message] = []
        var retrievalError: (any Error)?
        var replaceError: (any Error)?
        var deletionError: (any Error)?
    }

    private let state = Shared(State())

    public init() {}

    public var messages: [Message] { state.withLock { $0.messages } }
    public var feeds: [String: CachedFeed] { state.withLock { $0.feeds } }

    public func stub(_ key: String, _ feed: CachedFeed) { state.withLock { $0.feeds[key] = feed } }
    public func failRetrieval(with error: any Error) { state.withLock { $0.retrievalError = error } }
    public func failReplace(with error: any Error) { state.withLock { $0.replaceError = error } }
    public func failDeletion(with error: any Error) { state.withLock { $0.deletionError = error } }
    public func clearMessages() { state.withLock { $0.messages = [] } }

    public func retrieve(_ key: String) throws -> CachedFeed? {
        try state.withLock { state in
            state.messages.append(.retrieve(key))
            if let error = state.retrievalError { throw error }
            return state.feeds[key]
        }
    }

    public func replace(_ key: String, with feed: CachedFeed) throws {
        try state.withLock { state in
            state.messages.append(.replace(key))
            if let error = state.replaceError { throw error }
            state.feeds[key] = feed
        }
    }

    public func delete(_ key: String) throws {
        try state.withLock { state in
            state.messages.append(.delete(key))
            if let error = state.deletionError { throw error }
            state.feeds[key] = nil
        }
    }

    public func allFeeds() throws -> [(key: String, feed: CachedFeed)] {
        try state.withLock { state in
            state.messages.append(.allFeeds)
            if let error = state.retrievalError { throw error }
            return state.feeds.sorted { $0.key < $1.key }.map { (key: $0.key, feed: $0.value) }
        }
    }
}

/// An in-memory `ImageDataStore` that records what was asked of it and can be told to fail.
public final class ImageStoreSpy: ImageDataStore, Sendable {
    public enum Message: Hashable, Sendable {
        case retrieve(URL), insert(URL), deleteSavedAtOrBefore(Date), markUsed([URL])
    }

    struct State {
        var images: [URL: CachedImage] = [:]
        /// The digests a store that keeps them would give (`openImage`); none unless stubbed.
        var digests: [URL: Data] = [:]
        var messages: [Message] = []
        var retrievalError: (any Error)?
        var insertionError: (any Error)?
    }

    private let state = Shared(State())

    public init() {}

    public var messages: [Message] { state.withLock { $0.messages } }
    public var images: [URL: CachedImage] { state.withLock { $0.images } }

    public func stub(_ url: URL, _ image: CachedImage, sha256: Data? = nil) {
        state.withLock {
            $0.images[url] = image
            $0.digests[url] = sha256
        }
    }
    public func failRetrieval(with error: any Error) { state.withLock { $0.retrievalError = error } }
    public func failInsertion(with error: any Error) { state.withLock { $0.insertionError = error } }

    public func retrieveImage(for url: URL) throws -> CachedImage? {
        try state.withLock { state in
            state.messages.append(.retrieve(url))
            if let error = state.retrievalError { throw error }
            return state.images[url]
        }
    }

    public func markUsed(_ urls: [URL]) {
        guard !urls.isEmpty else { return }
        state.withLock { $0.messages.append(.markUsed(urls)) }
    }

    public func openImage(for url: URL) throws -> StoredImage? {
        let digest = state.withLock { $0.digests[url] }
        return try retrieveImage(for: url).map { StoredImage($0, sha256: digest) }
    }

    public func insertImage(_ image: CachedImage, for url: URL) throws {
        try state.withLock { state in
            state.messages.append(.insert(url))
            if let error = state.insertionError { throw error }
            state.images[url] = image
            state.digests[url] = nil
        }
    }

    public func deleteImages(savedAtOrBefore cutoff: Date) throws -> Int {
        state.withLock { state in
            state.messages.append(.deleteSavedAtOrBefore(cutoff))
            let expired = state.images.filter { $0.value.timestamp <= cutoff }.map(\.key)
            expired.forEach { state.images[$0] = nil }
            return expired.count
        }
    }
}
