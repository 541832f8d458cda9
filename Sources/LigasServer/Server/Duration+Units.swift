import Dispatch
import LigasProtocol

extension Duration {
    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(wholeNanoseconds)
    }
}
