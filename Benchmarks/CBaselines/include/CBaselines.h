/*
 * The benchmark's baselines, in C: raw LMDB with ObjDB's keys, a record of the same fields and
 * the same index, and SQLite as its users tune it. objdb-bench calls each workload once, hands
 * over the tweets as flat columns and times the call; no function allocates per operation.
 *
 * Every function that can fail returns 0 on success and -1 on failure, with the reason in
 * `error`. Checksums fold values with bench_mix, so every engine's read results compare equal.
 */
#ifndef OBJDB_BENCH_CBASELINES_H
#define OBJDB_BENCH_CBASELINES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why a call failed. */
typedef struct {
    char message[256];
} bench_error;

/*
 * Tweets as columns: tweet i is ids[i], user_ids[i], created_at[i], retweet_counts[i], the UTF-8
 * bytes texts[text_offsets[i] ..< text_offsets[i + 1]] and langs[lang_offsets[i] ..< lang_offsets[i + 1]].
 */
typedef struct {
    size_t count;
    const int64_t *ids;
    const int64_t *user_ids;
    const double *created_at;
    const int64_t *retweet_counts;
    const uint8_t *texts;
    const size_t *text_offsets;
    const uint8_t *langs;
    const size_t *lang_offsets;
} bench_tweets;

/* Folds `value` into `checksum` independently of the order of the values (as the Swift harness's mix). */
static inline void bench_mix(uint64_t *checksum, uint64_t value) {
    *checksum += (value * 0x9E3779B97F4A7C15ULL) ^ (value >> 7);
}

/* MARK: raw LMDB
 *
 * Table "tweets": key 0x01 + the id's order-preserving big-endian bytes (ObjDB's 9-byte primary
 * key); value userId (8), createdAt (8), retweetCount (8), lang length (1), lang, text, integers
 * in native byte order. Index "userId" (MDB_DUPSORT): big-endian userId -> table key. The
 * environment opens as ObjDB's does: MDB_NOSUBDIR | MDB_NOTLS | MDB_NORDAHEAD, plus MDB_NOSYNC
 * when not durable.
 */
typedef struct bench_lmdb bench_lmdb;

/* Creates the store at `path` with a map of `map_size` bytes; NULL on failure. */
bench_lmdb *bench_lmdb_open(const char *path, int durable, size_t map_size, bench_error *error);
void bench_lmdb_close(bench_lmdb *store);
/* W1: every tweet, in one transaction. */
int bench_lmdb_bulk_insert(bench_lmdb *store, const bench_tweets *tweets, bench_error *error);
/* W1 as ObjDB's bulk load lays it out: index entries as they come, then the records in key order
   with MDB_APPEND, which leaves every leaf full (objdb-bench --raw-sorted-load). */
int bench_lmdb_bulk_insert_sorted(bench_lmdb *store, const bench_tweets *tweets, bench_error *error);
/* W2, W3 and each writer of W2c: tweets [start, end), one transaction each. Safe from several threads. */
int bench_lmdb_single_inserts(
    bench_lmdb *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error);
/* W4: the text length of each id, folded into `checksum`. */
int bench_lmdb_point_reads(
    bench_lmdb *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error);
/* W5: the retweet count of every tweet of each user, through the index, folded into `checksum`. */
int bench_lmdb_indexed_queries(
    bench_lmdb *store, const int64_t *users, size_t count, uint64_t *checksum, bench_error *error);
/* W6: the number of tweets with retweetCount > 50 and lang "en". */
int bench_lmdb_filtered_scan(bench_lmdb *store, uint64_t *matches, bench_error *error);
/* W7: adds one to the retweet count of each stored id, in one transaction. */
int bench_lmdb_updates(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error);
/* W8: deletes each stored id and its index entry, in one transaction. */
int bench_lmdb_deletes(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error);
/* The data file's size in bytes. */
int64_t bench_lmdb_file_size(const bench_lmdb *store);

/* MARK: SQLite
 *
 * Table tweets (id INTEGER PRIMARY KEY, userId, createdAt, retweetCount, text, lang) with an
 * index on userId; every connection uses WAL, synchronous=FULL when durable and OFF when not,
 * a 1 GiB cache, temp_store=MEMORY and a 60 s busy timeout. The insert is prepared once per store,
 * the other statements once per call.
 */
typedef struct bench_sqlite bench_sqlite;

/* Creates the database at `path` with its table and index; NULL on failure. */
bench_sqlite *bench_sqlite_open(const char *path, int durable, bench_error *error);
void bench_sqlite_close(bench_sqlite *store);
int bench_sqlite_bulk_insert(bench_sqlite *store, const bench_tweets *tweets, bench_error *error);
/* W2 and W3: tweets [start, end), one transaction each. */
int bench_sqlite_single_inserts(
    bench_sqlite *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error);
/* One writer of W2c: the same, from one of several threads. The writers share the store's one
 * connection, one insert at a time under a mutex, as GRDB's single writer connection does: with
 * a connection per writer, SQLite's busy handler sleeps whenever two collide. */
int bench_sqlite_concurrent_inserts(
    bench_sqlite *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error);
int bench_sqlite_point_reads(
    bench_sqlite *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error);
int bench_sqlite_indexed_queries(
    bench_sqlite *store, const int64_t *users, size_t count, uint64_t *checksum, bench_error *error);
int bench_sqlite_filtered_scan(bench_sqlite *store, uint64_t *matches, bench_error *error);
int bench_sqlite_updates(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error);
int bench_sqlite_deletes(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error);
/* The database file's size in bytes, after checkpointing the WAL into it. */
int64_t bench_sqlite_file_size(bench_sqlite *store);

#ifdef __cplusplus
}
#endif

#endif

/* W12: SQLite FTS5 beside ObjDB's full-text index. */
#include "CBaselinesFTS.h"
