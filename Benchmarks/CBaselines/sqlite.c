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
    /* Every statement the workloads run, prepared once when the store opens. */
    sqlite3_stmt *insert, *read_text, *by_user, *count_matches, *update, *delete, *rows, *index_entries, *retweet_sum;
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
        || prepare(store->db, "INSERT INTO tweets VALUES (?, ?, ?, ?, ?, ?)", &store->insert, error)
        || prepare(store->db, "SELECT text FROM tweets WHERE id = ?", &store->read_text, error)
        || prepare(store->db, "SELECT retweetCount FROM tweets WHERE userId = ?", &store->by_user, error)
        || prepare(store->db, "SELECT count(*) FROM tweets WHERE retweetCount > 50 AND lang = 'en'",
                   &store->count_matches, error)
        || prepare(store->db, "UPDATE tweets SET retweetCount = retweetCount + 1 WHERE id = ?", &store->update, error)
        || prepare(store->db, "DELETE FROM tweets WHERE id = ?", &store->delete, error)
        || prepare(store->db, "SELECT count(*) FROM tweets", &store->rows, error)
        /* Counted through the index: INDEXED BY fails the statement if the index cannot serve it. */
        || prepare(store->db, "SELECT count(*) FROM tweets INDEXED BY tweets_userId WHERE userId IS NOT NULL",
                   &store->index_entries, error)
        || prepare(store->db, "SELECT sum(retweetCount) FROM tweets", &store->retweet_sum, error)) {
        bench_sqlite_close(store);
        return NULL;
    }
    return store;
}

void bench_sqlite_close(bench_sqlite *store) {
    if (!store) return;
    sqlite3_stmt *statements[] = {store->insert, store->read_text, store->by_user, store->count_matches, store->update,
                                  store->delete, store->rows, store->index_entries, store->retweet_sum};
    for (size_t i = 0; i < sizeof statements / sizeof *statements; i++) sqlite3_finalize(statements[i]);
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

struct id_order {
    int64_t id;
    size_t index;
};

static int compare_ids(const void *left, const void *right) {
    int64_t a = ((const struct id_order *)left)->id, b = ((const struct id_order *)right)->id;
    return (a > b) - (a < b);
}

/* In id order, as the LMDB engines put their records: each row appends to the table's B-tree. */
int bench_sqlite_bulk_insert(bench_sqlite *store, const bench_tweets *tweets, bench_error *error) {
    struct id_order *order = malloc((tweets->count ? tweets->count : 1) * sizeof *order);
    if (!order) return bench_fail(error, "out of memory");
    for (size_t i = 0; i < tweets->count; i++) order[i] = (struct id_order){tweets->ids[i], i};
    qsort(order, tweets->count, sizeof *order, compare_ids);
    int status = execute(store->db, "BEGIN", error);
    for (size_t i = 0; i < tweets->count && !status; i++) {
        bind_tweet(store->insert, tweets, order[i].index);
        status = step_done(store->db, store->insert, error);
    }
    free(order);
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

/* Ends a read that began with BEGIN, and hands out the checksum when every query succeeded. */
static int end_read(bench_sqlite *store, int status, uint64_t sum, uint64_t *checksum, bench_error *error) {
    if (execute(store->db, "COMMIT", error)) return -1;
    *checksum = sum;
    return status;
}

int bench_sqlite_point_reads(
    bench_sqlite *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error) {
    if (execute(store->db, "BEGIN", error)) return -1;
    sqlite3_stmt *select = store->read_text;
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        sqlite3_bind_int64(select, 1, ids[i]);
        if (sqlite3_step(select) == SQLITE_ROW) {
            const unsigned char *text = sqlite3_column_text(select, 0);
            bench_mix(&sum, bench_hash_bytes(text, (size_t)sqlite3_column_bytes(select, 0)));
        } else {
            status = bench_fail(error, "tweet %lld is missing", (long long)ids[i]);
        }
        sqlite3_reset(select);
    }
    return end_read(store, status, sum, checksum, error);
}

int bench_sqlite_indexed_queries(
    bench_sqlite *store, const int64_t *users, size_t count, uint64_t *checksum, bench_error *error) {
    if (execute(store->db, "BEGIN", error)) return -1;
    sqlite3_stmt *select = store->by_user;
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        sqlite3_bind_int64(select, 1, users[i]);
        int code;
        while ((code = sqlite3_step(select)) == SQLITE_ROW) bench_mix(&sum, (uint64_t)sqlite3_column_int64(select, 0));
        if (code != SQLITE_DONE) status = bench_fail(error, "step returned %d: %s", code, sqlite3_errmsg(store->db));
        sqlite3_reset(select);
    }
    return end_read(store, status, sum, checksum, error);
}

/* Steps `select`, which returns one row of one integer, into `value`. */
static int single_integer(bench_sqlite *store, sqlite3_stmt *select, int64_t *value, bench_error *error) {
    int status = sqlite3_step(select) == SQLITE_ROW ? 0 : bench_fail(error, "query failed: %s", sqlite3_errmsg(store->db));
    if (!status) *value = sqlite3_column_int64(select, 0);
    sqlite3_reset(select);
    return status;
}

int bench_sqlite_filtered_scan(bench_sqlite *store, uint64_t *matches, bench_error *error) {
    int64_t count = 0;
    if (single_integer(store, store->count_matches, &count, error)) return -1;
    *matches = (uint64_t)count;
    return 0;
}

/* Runs `statement` once per id, bound to its one parameter, in one transaction; fails when an id
 * changes no row. */
static int run_for_each(bench_sqlite *store, sqlite3_stmt *statement, const int64_t *ids, size_t count,
                        bench_error *error) {
    int status = execute(store->db, "BEGIN", error);
    for (size_t i = 0; i < count && !status; i++) {
        sqlite3_bind_int64(statement, 1, ids[i]);
        status = step_done(store->db, statement, error);
        if (!status && sqlite3_changes(store->db) != 1) status = bench_fail(error, "tweet %lld is missing", (long long)ids[i]);
    }
    if (status) {
        sqlite3_exec(store->db, "ROLLBACK", NULL, NULL, NULL);
        return status;
    }
    return execute(store->db, "COMMIT", error);
}

int bench_sqlite_updates(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error) {
    return run_for_each(store, store->update, ids, count, error);
}

int bench_sqlite_deletes(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error) {
    return run_for_each(store, store->delete, ids, count, error);
}

int bench_sqlite_census(bench_sqlite *store, bench_census *census, bench_error *error) {
    int64_t rows = 0, entries = 0, sum = 0;
    if (execute(store->db, "BEGIN", error)) return -1;
    int status = single_integer(store, store->rows, &rows, error);
    if (!status) status = single_integer(store, store->index_entries, &entries, error);
    if (!status) status = single_integer(store, store->retweet_sum, &sum, error);
    if (execute(store->db, "COMMIT", error)) return -1;
    if (status) return status;
    *census = (bench_census){(uint64_t)rows, (uint64_t)entries, sum};
    return 0;
}

int64_t bench_sqlite_file_size(bench_sqlite *store) {
    sqlite3_exec(store->db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    struct stat status;
    return stat(store->path, &status) == 0 ? (int64_t)status.st_size : 0;
}
