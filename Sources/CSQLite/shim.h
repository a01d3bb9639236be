#ifndef YARN_CSQLITE_SHIM_H
#define YARN_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro cast Swift cannot import: bind calls that copy their text use this.
static inline sqlite3_destructor_type yarn_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic, which Swift cannot call: turns off the checkpoint that the
/// last connection runs when it closes (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE), so that a short
/// command leaves its committed (and synced) frames in the WAL instead of copying them into
/// the database and syncing both files on every exit.
static inline int yarn_sqlite_no_checkpoint_on_close(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// sqlite3_config is variadic too: turns off SQLite's memory statistics
/// (SQLITE_CONFIG_MEMSTATUS), which take a process-wide mutex on every allocation (a third of
/// a million instructions when the schema is parsed). Only before SQLite is initialized
/// (the first sqlite3_open); later it returns SQLITE_MISUSE and changes nothing.
static inline int yarn_sqlite_no_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
