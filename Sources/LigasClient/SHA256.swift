import FoundationEssentials
import Glibc

/// SHA-256 of a stream's chunks, from the system's OpenSSL (SHA-NI where the CPU has it, like
/// BoringSSL). Not swift-crypto: linking its Crypto module keeps all of its algorithms, and
/// BoringSSL's tables for them, in the binary (2.3 MB of ligas-client's 17).
final class SHA256 {
    private let crypto: LibCrypto
    private let context: OpaquePointer

    /// Nil when libcrypto cannot be loaded (see `LibCrypto`).
    init?() {
        guard let crypto = LibCrypto.shared, let context = crypto.newContext() else { return nil }
        guard crypto.digestInit(context, crypto.sha256(), nil) == 1 else {
            crypto.freeContext(context)
            return nil
        }
        self.crypto = crypto
        self.context = context
    }

    deinit {
        crypto.freeContext(context)
    }

    func update(data: Data) {
        data.withUnsafeBytes { bytes in
            guard let address = bytes.baseAddress else { return }
            _ = crypto.digestUpdate(context, address, bytes.count)
        }
    }

    /// The 32-byte digest; the hasher is spent afterwards.
    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 64)  // EVP_MAX_MD_SIZE
        var length: UInt32 = 0
        _ = crypto.digestFinal(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }
}

/// OpenSSL's EVP digest functions, from `libcrypto.so.3` (Debian's libssl3), loaded the first time
/// a stream is checked rather than linked: loading it costs every process that links it 1–2.5 ms
/// here (its relocations; `hyperfine` on an empty C program with and without it), and most client
/// processes, `ligas-client teams` and the like, never download an image.
struct LibCrypto: @unchecked Sendable {
    static let soname = "libcrypto.so.3"
    /// Nil if the library or one of its functions is missing: a download then fails its check.
    static let shared = LibCrypto()

    let newContext: @convention(c) () -> OpaquePointer?
    let freeContext: @convention(c) (OpaquePointer?) -> Void
    let sha256: @convention(c) () -> OpaquePointer?
    let digestInit: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    let digestUpdate: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    let digestFinal: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32

    private init?() {
        // Never closed: the functions stay in use for the life of the process.
        guard let library = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func function<F>(_ name: String, _ type: F.Type) -> F? {
            dlsym(library, name).map { unsafeBitCast($0, to: F.self) }
        }
        guard let newContext = function("EVP_MD_CTX_new", (@convention(c) () -> OpaquePointer?).self),
              let freeContext = function("EVP_MD_CTX_free", (@convention(c) (OpaquePointer?) -> Void).self),
              let sha256 = function("EVP_sha256", (@convention(c) () -> OpaquePointer?).self),
              let digestInit = function(
                "EVP_DigestInit_ex", (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32).self),
              let digestUpdate = function(
                "EVP_DigestUpdate", (@convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32).self),
              let digestFinal = function(
                "EVP_DigestFinal_ex",
                (@convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32).self)
        else { return nil }
        self.newContext = newContext
        self.freeContext = freeContext
        self.sha256 = sha256
        self.digestInit = digestInit
        self.digestUpdate = digestUpdate
        self.digestFinal = digestFinal
    }
}
