import Foundation
import LigasTestSupport

extension ProcessMemory {
    static func mebibytes(_ kib: Int) -> String { Report.fixed(Double(kib) / 1024) }
}
