import COpenSSLCrypto
import FoundationEssentials

/// SHA-256 of a stream's chunks, from the system's OpenSSL (SHA-NI where the CPU has it, like
/// BoringSSL). Not swift-crypto: linking its Crypto module keeps all of its algorithms, and
/// BoringSSL's tables for them, in the binary (2.3 MB of ligas-client's 17).
final class SHA256 {
    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("OpenSSL cannot start a SHA-256 digest")
        }
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    func update(data: Data) {
        data.withUnsafeBytes { bytes in
            guard let address = bytes.baseAddress else { return }
            EVP_DigestUpdate(context, address, bytes.count)
        }
    }

    /// The 32-byte digest; the hasher is spent afterwards.
    func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }
}
