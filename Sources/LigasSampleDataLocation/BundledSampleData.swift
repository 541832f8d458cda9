import FoundationEssentials
import Glibc

/// The bundled sample dataset: LigaPro Serie A and Serie B laid out like the project's REST
/// contract, so a `file://` URL to it is a complete remote that needs no server.
public enum BundledSampleData {
    /// The directory to use as the `ligas-rest` base URL.
    public static let baseURL = URL(fileURLWithPath: directory, isDirectory: true)

    /// The resource directory beside the executable, where SwiftPM copies it on every build and
    /// scripts/install puts it beside the installed ligasd; else the source tree it was built
    /// from (a binary copied elsewhere, a test runner started from the toolchain).
    static var directory: String {
        let beside = executableDirectory + "/ligasd_LigasSampleData.resources/SampleData"
        var status = stat()
        if stat(beside, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../LigasSampleData/SampleData").standardized.path
    }

    /// The running executable's directory, symlinks resolved (`usr/bin/ligasd` is a link).
    private static var executableDirectory: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        return URL(fileURLWithPath: String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
            .deletingLastPathComponent().path
    }
}
