// libpq, PostgreSQL's C client library, for MVCPostgresStore: the system's own (Debian's
// libpq-dev), linked without any package dependency.
#include <libpq-fe.h>
