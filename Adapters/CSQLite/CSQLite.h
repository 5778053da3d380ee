// SQLite's C interface, for MVCSQLiteStore: the system's own library (Debian's libsqlite3-dev on
// Linux, the SDK's on Apple platforms), linked without any package dependency.
#include <sqlite3.h>

// `sqlite3_db_config` takes variable arguments, which Swift cannot pass: one setting, wrapped.
// Tells the connection not to fold the write-ahead log into the file when it closes (SQLite
// 3.16 and later).
static inline int mvc_sqlite3_skip_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
