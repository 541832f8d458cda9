// The system's SQLite (libsqlite3), for the cache store's thin layer over its C API.
#include <sqlite3.h>

// sqlite3_config and sqlite3_db_config are variadic, which Swift cannot call: these are the calls
// the store makes.
// No page-cache memory set aside up front: by default a connection's page cache takes room for 20
// pages in one allocation at its first read (1.3 MiB with the cache's 64 KiB pages, whether or
// not a read needs them), and again at the first read after each sqlite3_db_release_memory; without
// it, pages are allocated one by one as they are used. Only before SQLite initializes.
static inline int ligas_sqlite3_config_no_initial_page_cache(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

// SQLite's documented way to empty a database file however damaged it is: this on, VACUUM, this off.
static inline int ligas_sqlite3_db_config_reset_database(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_RESET_DATABASE, on, (int *)0);
}
