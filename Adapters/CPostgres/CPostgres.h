// libpq, PostgreSQL's C client library, for MVCPostgresStore: the system's own (Debian's
// libpq-dev), linked without any package dependency. Debian keeps the header in a folder of its
// own, which pkg-config names when it is installed; without pkg-config it is found here.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
