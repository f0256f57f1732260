/* W12's baseline: SQLite FTS5 as GRDB users set it up (see CBaselinesFTS.h). */
#include "CBaselines.h"
#include "failure.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bench_fts {
    sqlite3 *db;
    sqlite3_stmt *queries[4];
};

static const char *query_sql[4] = {
    "SELECT rowid FROM fts WHERE fts MATCH ?1",
    "SELECT rowid FROM fts WHERE fts MATCH ?1 ORDER BY rank, rowid LIMIT 20",
    "SELECT tweets.id FROM fts JOIN tweets ON tweets.id = fts.rowid WHERE fts MATCH ?1 AND tweets.retweetCount > 50 "
    "ORDER BY tweets.createdAt DESC",
    "SELECT count(*) FROM tweets WHERE text LIKE '%' || ?1 || '%'",
};

static int run(sqlite3 *db, const char *sql, bench_error *error) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) == SQLITE_OK) return 0;
    bench_fail(error, "%.60s: %s", sql, message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    return -1;
}

bench_fts *bench_fts_open(const char *path, bench_error *error) {
    bench_fts *store = calloc(1, sizeof *store);
    if (!store) {
        bench_fail(error, "out of memory");
        return NULL;
    }
    if (sqlite3_open_v2(path, &store->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)
            != SQLITE_OK
        || run(store->db,
               "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=-1048576; "
               "PRAGMA temp_store=MEMORY; CREATE TABLE tweets (id INTEGER PRIMARY KEY, text TEXT NOT NULL, "
               "retweetCount INTEGER NOT NULL, createdAt REAL NOT NULL);",
               error)) {
        if (store->db && !error->message[0]) bench_fail(error, "cannot open %s: %s", path, sqlite3_errmsg(store->db));
        bench_fts_close(store);
        return NULL;
    }
    return store;
}

void bench_fts_close(bench_fts *store) {
    if (!store) return;
    for (int index = 0; index < 4; index++) sqlite3_finalize(store->queries[index]);
    sqlite3_close(store->db);
    free(store);
}

int bench_fts_load(
    bench_fts *store, const int64_t *ids, const uint8_t *texts, const size_t *offsets, const int64_t *retweet_counts,
    const double *created_at, size_t count, bench_error *error) {
    sqlite3_stmt *insert = NULL;
    if (sqlite3_prepare_v2(store->db, "INSERT INTO tweets VALUES (?, ?, ?, ?)", -1, &insert, NULL) != SQLITE_OK)
        return bench_fail(error, "prepare insert: %s", sqlite3_errmsg(store->db));
    if (run(store->db, "BEGIN", error)) {
        sqlite3_finalize(insert);
        return -1;
    }
    for (size_t index = 0; index < count; index++) {
        sqlite3_bind_int64(insert, 1, ids[index]);
        sqlite3_bind_text(insert, 2, (const char *)texts + offsets[index], (int)(offsets[index + 1] - offsets[index]),
                          SQLITE_STATIC);
        sqlite3_bind_int64(insert, 3, retweet_counts[index]);
        sqlite3_bind_double(insert, 4, created_at[index]);
        if (sqlite3_step(insert) != SQLITE_DONE) {
            bench_fail(error, "insert: %s", sqlite3_errmsg(store->db));
            sqlite3_finalize(insert);
            return -1;
        }
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    return run(store->db, "COMMIT", error);
}

int bench_fts_build(bench_fts *store, bench_error *error) {
    if (run(store->db,
            "BEGIN; CREATE VIRTUAL TABLE fts USING fts5(text, content='tweets', content_rowid='id', "
            "tokenize=\"unicode61 remove_diacritics 2 tokenchars '#@_:/.'\"); "
            "INSERT INTO fts(fts) VALUES('rebuild'); COMMIT;",
            error))
        return -1;
    for (int index = 0; index < 4; index++) {
        if (sqlite3_prepare_v2(store->db, query_sql[index], -1, &store->queries[index], NULL) != SQLITE_OK)
            return bench_fail(error, "prepare %s: %s", query_sql[index], sqlite3_errmsg(store->db));
    }
    return 0;
}

int64_t bench_fts_index_size(bench_fts *store) {
    sqlite3_stmt *statement = NULL;
    int64_t size = -1;
    if (sqlite3_prepare_v2(store->db, "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'fts%'", -1, &statement, NULL)
        == SQLITE_OK) {
        if (sqlite3_step(statement) == SQLITE_ROW) size = sqlite3_column_int64(statement, 0);
    }
    sqlite3_finalize(statement);
    return size;
}

int bench_fts_query(
    bench_fts *store, bench_fts_query_kind kind, const char *text, int64_t *ids, size_t capacity, size_t *count,
    bench_error *error) {
    sqlite3_stmt *statement = store->queries[kind];
    if (!statement) return bench_fail(error, "the index is not built");
    sqlite3_bind_text(statement, 1, text, -1, SQLITE_STATIC);
    size_t found = 0;
    int code;
    while ((code = sqlite3_step(statement)) == SQLITE_ROW) {
        if (kind == BENCH_FTS_LIKE) {
            found = (size_t)sqlite3_column_int64(statement, 0);
            continue;
        }
        if (found < capacity) ids[found] = sqlite3_column_int64(statement, 0);
        found++;
    }
    sqlite3_reset(statement);
    if (code != SQLITE_DONE) return bench_fail(error, "query %d '%s': %s", kind, text, sqlite3_errmsg(store->db));
    *count = found;
    return 0;
}
