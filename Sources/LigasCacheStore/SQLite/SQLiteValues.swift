import CSQLite
import FoundationEssentials

/// A value a statement's `?` can take.
protocol SQLiteBindable {
    /// Binds the value to the 1-based parameter `index`; returns SQLite's result code.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

/// SQLite copies bound text and blobs (the caller's buffer is only valid during the call).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension Int: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
}

extension Double: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_double(statement, index, self)
    }
}

extension String: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withCString { sqlite3_bind_text(statement, index, $0, Int32(utf8.count), transient) }
    }
}

extension Data: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        withUnsafeBytes { bytes in
            // An empty buffer may have no address, which SQLite would store as NULL, not as a blob.
            guard let address = bytes.baseAddress else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob64(statement, index, address, sqlite3_uint64(bytes.count), transient)
        }
    }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .some(let value): value.bind(to: statement, at: index)
        case .none: sqlite3_bind_null(statement, index)
        }
    }
}

/// One result row, copied out of the statement, its columns read by position in the SELECT.
struct SQLiteRow: Sendable {
    private enum Value: Sendable {
        case null, integer(Int64), real(Double), text(String), blob(Data)
    }

    private let values: [Value]

    init(_ statement: OpaquePointer) {
        values = (0..<sqlite3_column_count(statement)).map { column in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
            case SQLITE_BLOB:
                .blob(sqlite3_column_blob(statement, column).map {
                    Data(bytes: $0, count: Int(sqlite3_column_bytes(statement, column)))
                } ?? Data())
            default: .null
            }
        }
    }

    /// nil for NULL; a REAL is truncated, as SQLite's own conversion does.
    func optionalInt(_ column: Int) -> Int? {
        switch values[column] {
        case .integer(let value): Int(value)
        case .real(let value): Int(value)
        default: nil
        }
    }

    func optionalDouble(_ column: Int) -> Double? {
        switch values[column] {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    func optionalText(_ column: Int) -> String? {
        if case .text(let value) = values[column] { value } else { nil }
    }

    func optionalBlob(_ column: Int) -> Data? {
        if case .blob(let value) = values[column] { value } else { nil }
    }

    // A column the schema declares NOT NULL: anything else there means a damaged file.

    func int(_ column: Int) throws -> Int { try required(optionalInt(column), column) }
    func double(_ column: Int) throws -> Double { try required(optionalDouble(column), column) }
    func text(_ column: Int) throws -> String { try required(optionalText(column), column) }
    func blob(_ column: Int) throws -> Data { try required(optionalBlob(column), column) }

    private func required<T>(_ value: T?, _ column: Int) throws -> T {
        guard let value else { throw SQLiteError(code: SQLITE_CORRUPT, message: "column \(column) is not a \(T.self) (NULL or another type)") }
        return value
    }
}
