import Foundation
import NIOConcurrencyHelpers

/// A clock the test moves by hand, injected wherever the code asks for "now".
public final class TestClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
        current = NIOLockedValueBox(start)
    }

    public var now: Date { current.withLockedValue { $0 } }
    public var currentDate: @Sendable () -> Date { { [current] in current.withLockedValue { $0 } } }

    public func advance(by interval: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(interval) }
    }
}

extension TimeInterval {
    public static let oneSecond: TimeInterval = 1
    public static let sevenDays: TimeInterval = 7 * 24 * 60 * 60
}
