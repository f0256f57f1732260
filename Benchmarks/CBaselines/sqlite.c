/* The SQLite baseline: Debian's SQLite as its users tune it (see CBaselines.h). */
#include "CBaselines.h"
#include "failure.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

struct bench_sqlite {
    sqlite3 *db;
    /* The insert every insert workload runs, prepared once. */
    sqlite3_stmt *insert;
    /* Serializes W2c's writers on the one connection, as GRDB's single writer does. */
    pthread_mutex_t writer;
    char path[4096];
};

static int execute(sqlite3 *db, const char *sql, bench_error *error) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) == SQLITE_OK) return 0;
    bench_fail(error, "%.40s: %s", sql, message ? message : sqlite3_errmsg(db));
    sqlite3_free(message);
    return -1;
}

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **statement, bench_error *error) {
    if (sqlite3_prepare_v2(db, sql, -1, statement, NULL) == SQLITE_OK) return 0;
    return bench_fail(error, "cannot prepare %s: %s", sql, sqlite3_errmsg(db));
}

/* Runs a statement that returns no rows, and resets it for its next bindings. */
static int step_done(sqlite3 *db, sqlite3_stmt *statement, bench_error *error) {
    int code = sqlite3_step(statement);
    sqlite3_reset(statement);
    return code == SQLITE_DONE ? 0 : bench_fail(error, "step returned %d: %s", code, sqlite3_errmsg(db));
}

/* Opens a connection to the store's file with the benchmark's settings. */
static sqlite3 *connect(const char *path, int durable, bench_error *error) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)
        != SQLITE_OK) {
        bench_fail(error, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return NULL;
    }
    const char *settings = durable ? "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-1048576; "
                                     "PRAGMA temp_store=MEMORY; PRAGMA busy_timeout=60000;"
                                   : "PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF; PRAGMA cache_size=-1048576; "
                                     "PRAGMA temp_store=MEMORY; PRAGMA busy_timeout=60000;";
    if (execute(db, settings, error)) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

bench_sqlite *bench_sqlite_open(const char *path, int durable, bench_error *error) {
    bench_sqlite *store = calloc(1, sizeof *store);
    if (!store) {
        bench_fail(error, "out of memory");
        return NULL;
    }
    snprintf(store->path, sizeof store->path, "%s", path);
    pthread_mutex_init(&store->writer, NULL);
    store->db = connect(path, durable, error);
    if (!store->db
        || execute(store->db,
                   "CREATE TABLE tweets (id INTEGER PRIMARY KEY, userId INTEGER NOT NULL, createdAt REAL NOT NULL, "
                   "retweetCount INTEGER NOT NULL, text TEXT NOT NULL, lang TEXT NOT NULL); "
                   "CREATE INDEX tweets_userId ON tweets(userId);",
                   error)
        || prepare(store->db, "INSERT INTO tweets VALUES (?, ?, ?, ?, ?, ?)", &store->insert, error)) {
        bench_sqlite_close(store);
        return NULL;
    }
    return store;
}

void bench_sqlite_close(bench_sqlite *store) {
    if (!store) return;
    sqlite3_finalize(store->insert);
    sqlite3_close(store->db);
    pthread_mutex_destroy(&store->writer);
    free(store);
}

/* Binds tweet `i` to the insert statement's six parameters. The columns outlive the step, so
 * SQLite reads the text where it is (SQLITE_STATIC) instead of copying it. */
static void bind_tweet(sqlite3_stmt *insert, const bench_tweets *tweets, size_t i) {
    sqlite3_bind_int64(insert, 1, tweets->ids[i]);
    sqlite3_bind_int64(insert, 2, tweets->user_ids[i]);
    sqlite3_bind_double(insert, 3, tweets->created_at[i]);
    sqlite3_bind_int64(insert, 4, tweets->retweet_counts[i]);
    sqlite3_bind_text(insert, 5, (const char *)tweets->texts + tweets->text_offsets[i],
                      (int)(tweets->text_offsets[i + 1] - tweets->text_offsets[i]), SQLITE_STATIC);
    sqlite3_bind_text(insert, 6, (const char *)tweets->langs + tweets->lang_offsets[i],
                      (int)(tweets->lang_offsets[i + 1] - tweets->lang_offsets[i]), SQLITE_STATIC);
}

int bench_sqlite_bulk_insert(bench_sqlite *store, const bench_tweets *tweets, bench_error *error) {
    int status = execute(store->db, "BEGIN", error);
    for (size_t i = 0; i < tweets->count && !status; i++) {
        bind_tweet(store->insert, tweets, i);
        status = step_done(store->db, store->insert, error);
    }
    if (status) {
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
        return status;
    }
    return execute(store->db, "COMMIT", error);
}

int bench_sqlite_single_inserts(
    bench_sqlite *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error) {
    int status = 0;
    for (size_t i = start; i < end && !status; i++) {
        bind_tweet(store->insert, tweets, i);
        status = step_done(store->db, store->insert, error);
    }
    return status;
}

int bench_sqlite_concurrent_inserts(
    bench_sqlite *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error) {
    int status = 0;
    for (size_t i = start; i < end && !status; i++) {
        pthread_mutex_lock(&store->writer);
        bind_tweet(store->insert, tweets, i);
        status = step_done(store->db, store->insert, error);
        pthread_mutex_unlock(&store->writer);
    }
    return status;
}

/* Prepares `sql` and begins a read transaction for it. */
static int begin_query(bench_sqlite *store, const char *sql, sqlite3_stmt **select, bench_error *error) {
    if (prepare(store->db, sql, select, error)) return -1;
    if (execute(store->db, "BEGIN", error)) {
        sqlite3_finalize(*select);
        return -1;
    }
    return 0;
}

/* Ends what begin_query began, and hands out the checksum when every query succeeded. */
static int end_query(bench_sqlite *store, sqlite3_stmt *select, int status, uint64_t sum, uint64_t *checksum,
                     bench_error *error) {
    sqlite3_finalize(select);
    if (execute(store->db, "COMMIT", error)) return -1;
    *checksum = sum;
    return status;
}

int bench_sqlite_point_reads(
    bench_sqlite *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error) {
    sqlite3_stmt *select;
    if (begin_query(store, "SELECT text FROM tweets WHERE id = ?", &select, error)) return -1;
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        sqlite3_bind_int64(select, 1, ids[i]);
        if (sqlite3_step(select) == SQLITE_ROW) bench_mix(&sum, (uint64_t)sqlite3_column_bytes(select, 0));
        else status = bench_fail(error, "tweet %lld is missing", (long long)ids[i]);
        sqlite3_reset(select);
    }
    return end_query(store, select, status, sum, checksum, error);
}

int bench_sqlite_indexed_queries(
    bench_sqlite *store, const int64_t *users, size_t count, uint64_t *checksum, bench_error *error) {
    sqlite3_stmt *select;
    if (begin_query(store, "SELECT retweetCount FROM tweets WHERE userId = ?", &select, error)) return -1;
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        sqlite3_bind_int64(select, 1, users[i]);
        int code;
        while ((code = sqlite3_step(select)) == SQLITE_ROW) bench_mix(&sum, (uint64_t)sqlite3_column_int64(select, 0));
        if (code != SQLITE_DONE) status = bench_fail(error, "step returned %d: %s", code, sqlite3_errmsg(store->db));
        sqlite3_reset(select);
    }
    return end_query(store, select, status, sum, checksum, error);
}

int bench_sqlite_filtered_scan(bench_sqlite *store, uint64_t *matches, bench_error *error) {
    sqlite3_stmt *select;
    if (prepare(store->db, "SELECT count(*) FROM tweets WHERE retweetCount > 50 AND lang = 'en'", &select, error))
        return -1;
    int status = sqlite3_step(select) == SQLITE_ROW ? 0 : bench_fail(error, "count failed: %s", sqlite3_errmsg(store->db));
    if (!status) *matches = (uint64_t)sqlite3_column_int64(select, 0);
    sqlite3_finalize(select);
    return status;
}

/* Runs `sql` once per id, bound to its one parameter, in one transaction. */
static int run_for_each(bench_sqlite *store, const char *sql, const int64_t *ids, size_t count, bench_error *error) {
    sqlite3_stmt *statement;
    if (prepare(store->db, sql, &statement, error)) return -1;
    int status = execute(store->db, "BEGIN", error);
    for (size_t i = 0; i < count && !status; i++) {
        sqlite3_bind_int64(statement, 1, ids[i]);
        status = step_done(store->db, statement, error);
    }
    sqlite3_finalize(statement);
    if (status) {
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
        return status;
    }
    return execute(store->db, "COMMIT", error);
}

int bench_sqlite_updates(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error) {
    return run_for_each(store, "UPDATE tweets SET retweetCount = retweetCount + 1 WHERE id = ?", ids, count, error);
}

int bench_sqlite_deletes(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error) {
    return run_for_each(store, "DELETE FROM tweets WHERE id = ?", ids, count, error);
}

int64_t bench_sqlite_file_size(bench_sqlite *store) {
    sqlite3_exec(store->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    struct stat status;
    return stat(store->path, &status) == 0 ? (int64_t)status.st_size : 0;
}
