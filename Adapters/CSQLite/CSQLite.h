// SQLite's C interface, for MVCSQLiteStore: the system's own library (Debian's libsqlite3-dev on
// Linux, the SDK's on Apple platforms), linked without any package dependency.
#include <sqlite3.h>

