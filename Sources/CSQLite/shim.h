// The system's SQLite (libsqlite3), for the cache store's thin layer over its C API.
#include <sqlite3.h>
