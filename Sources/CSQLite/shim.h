#ifndef FIELDRIG_CSQLITE_SHIM_H
#define FIELDRIG_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer; Swift cannot import it.
/// Binding with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type fieldrig_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
#endif
