#ifndef YARN_CSQLITE_SHIM_H
#define YARN_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro cast Swift cannot import: bind calls that copy their text use this.
static inline sqlite3_destructor_type yarn_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}
#endif
