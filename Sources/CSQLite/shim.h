#ifndef FIELDRIG_CSQLITE_SHIM_H
#define FIELDRIG_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer; Swift cannot import it.
/// Binding with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type fieldrig_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Turns off SQLite's memory statistics, which take one mutex around every allocation of every
/// connection in the process: registers used side by side (scenarios on several jobs) would queue
/// on it. sqlite3_config is variadic, which Swift cannot call. Only before SQLite starts; later it
/// returns SQLITE_MISUSE and changes nothing.
static inline int fieldrig_sqlite_without_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
