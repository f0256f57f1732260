#ifndef OBJDB_CSQLITE_SHIM_H
#define OBJDB_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
