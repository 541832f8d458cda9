import Foundation

/// A clock the test moves by hand, injected wherever the code asks for "now".
public final class TestClock: Sendable {
    private let current: Shared<Date>

    public init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
        current = Shared(start)
    }

    public var now: Date { current.value }
    public var currentDate: @Sendable () -> Date { { [current] in current.value } }

    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }
}

extension TimeInterval {
    public static let oneSecond: TimeInterval = 1
    public static let sevenDays: TimeInterval = 7 * 24 * 60 * 60
}
