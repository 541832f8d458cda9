import Glibc

enum FileDescriptorWriter {
    /// Writes `bytes` with a single write(2), so lines from concurrent loggers never interleave
    /// (a pipe guarantees that up to PIPE_BUF bytes). Only an interrupted or short write is retried
    /// for the rest. Errors are ignored: there is nowhere left to report a failure to log.
    static func write(_ bytes: [UInt8], to fileDescriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fileDescriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
