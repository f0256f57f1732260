/*
 * The benchmark's baselines, in C: raw LMDB with ObjDB's key bytes, a record of the same fields
 * and the same index, and SQLite as its users tune it. objdb-bench calls each workload once, hands
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

/* A hash of `count` bytes, eight at a time: W4 folds the hash of every text it reads, so each
 * engine must read all of the text's bytes, not only its length. Swift calls the same function. */
static inline uint64_t bench_hash_bytes(const uint8_t *bytes, size_t count) {
    uint64_t hash = 0x9E3779B97F4A7C15ULL ^ (uint64_t)count;
    size_t offset = 0;
    for (; offset + 8 <= count; offset += 8) {
        uint64_t word;
        __builtin_memcpy(&word, bytes + offset, 8);
        hash = (hash ^ word) * 0xFF51AFD7ED558CCDULL;
        hash ^= hash >> 32;
    }
    uint64_t tail = 0;
    for (; offset < count; offset++) tail = tail << 8 | bytes[offset];
    hash = (hash ^ tail) * 0xC4CEB9FE1A85EC53ULL;
    return hash ^ (hash >> 29);
}

/* What a store holds, compared across engines after the workloads that write: the tweets, the
 * entries of the userId index, and the sum of every tweet's retweetCount. */
typedef struct {
    uint64_t rows;
    uint64_t index_entries;
    int64_t retweet_sum;
} bench_census;

/* MARK: raw LMDB
 *
 * The bytes ObjDB's format gives the same tweets (docs/FORMAT.md), so both B-trees hold keys
 * of the same lengths: table "tweets", key = the id's OrderedVarInt (ObjectKeyCodec's key of an
 * integer primary key: 4 bytes for the benchmark's ids), value = userId (8), createdAt (8),
 * retweetCount (8), lang length (1), lang, text, integers in native byte order. Index "userId"
 * (MDB_DUPSORT): key = 0x01 + the userId's OrderedVarInt (IndexKeyCodec's key of an integer),
 * value = the table key. The environment opens as ObjDB's does: MDB_NOSUBDIR | MDB_NOTLS |
 * MDB_NORDAHEAD, plus MDB_NOSYNC when not durable.
 *
 * It uses every technique ObjDB's storage layer does: the bulk load puts the records in key
 * order through one cursor with MDB_APPEND (full leaves, no search), records are written in the
 * space MDB_RESERVE gives, a get prefetches the record's cache lines, the scan prefetches each
 * leaf page when it enters it, and updates and deletes go through the cursor their get
 * positioned (MDB_SET, then MDB_CURRENT or mdb_cursor_del: one descent per row).
 */
typedef struct bench_lmdb bench_lmdb;

/* The longest key bench_encode_ordered_int and bench_encode_index_int write. */
enum { BENCH_ORDERED_INT_MAX = 9, BENCH_INDEX_INT_MAX = 10 };
/* ObjDB's OrderedVarInt of `value`, which is ObjectKeyCodec's table key of an integer primary
 * key; returns its length (1 to 9 bytes). */
size_t bench_encode_ordered_int(int64_t value, uint8_t key[BENCH_ORDERED_INT_MAX]);
/* IndexKeyCodec's key of an integer: the value tag 0x01, then the OrderedVarInt; returns its length. */
size_t bench_encode_index_int(int64_t value, uint8_t key[BENCH_INDEX_INT_MAX]);

/* Creates the store at `path` with a map of `map_size` bytes; NULL on failure. */
bench_lmdb *bench_lmdb_open(const char *path, int durable, size_t map_size, bench_error *error);
void bench_lmdb_close(bench_lmdb *store);
/* W1: every tweet, in one transaction: the index entries as they come, then the records sorted
   by key through one cursor with MDB_APPEND, as ObjDB's bulk load does. */
int bench_lmdb_bulk_insert(bench_lmdb *store, const bench_tweets *tweets, bench_error *error);
/* W2, W3 and each writer of W2c: tweets [start, end), one transaction each. Safe from several threads. */
int bench_lmdb_single_inserts(
    bench_lmdb *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error);
/* W4: the text of each id, its bytes hashed (bench_hash_bytes) and folded into `checksum`. */
int bench_lmdb_point_reads(
    bench_lmdb *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error);
/* W5: the retweet count of every tweet of each user, through the index, folded into `checksum`. */
int bench_lmdb_indexed_queries(
    bench_lmdb *store, const int64_t *users, size_t count, uint64_t *checksum, bench_error *error);
/* W6: the number of tweets with retweetCount > 50 and lang "en". */
int bench_lmdb_filtered_scan(bench_lmdb *store, uint64_t *matches, bench_error *error);
/* W7: adds one to the retweet count of each id, in one transaction; fails when one is missing. */
int bench_lmdb_updates(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error);
/* W8: deletes each id and its index entry, in one transaction; fails when either is missing. */
int bench_lmdb_deletes(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error);
/* The store's tweets, index entries and retweet sum (a scan of the table; not timed). */
int bench_lmdb_census(bench_lmdb *store, bench_census *census, bench_error *error);

/* One B-tree's shape, as mdb_stat reports it. */
typedef struct {
    char name[32];
    unsigned depth;
    size_t branch_pages, leaf_pages, overflow_pages, entries;
} bench_lmdb_tree;
/* The shape of the main database, "tweets" and "userId", in that order, into `trees`. */
int bench_lmdb_layout(bench_lmdb *store, bench_lmdb_tree trees[3], bench_error *error);
/* The data file's size in bytes. */
int64_t bench_lmdb_file_size(const bench_lmdb *store);

/* MARK: SQLite
 *
 * Table tweets (id INTEGER PRIMARY KEY, userId, createdAt, retweetCount, text, lang) with an
 * index on userId; every connection uses WAL, synchronous=FULL when durable and OFF when not,
 * a 1 GiB cache, temp_store=MEMORY and a 60 s busy timeout. Every statement is prepared once,
 * when the store opens; the bulk load inserts in id order, as the LMDB engines put their records.
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
/* W7 and W8 fail when an id changes no row. */
int bench_sqlite_updates(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error);
int bench_sqlite_deletes(bench_sqlite *store, const int64_t *ids, size_t count, bench_error *error);
/* The rows, the entries of the userId index (counted through it) and the retweet sum. */
int bench_sqlite_census(bench_sqlite *store, bench_census *census, bench_error *error);
/* The database file's size in bytes, after checkpointing the WAL into it. */
int64_t bench_sqlite_file_size(bench_sqlite *store);

#ifdef __cplusplus
}
#endif

#endif

/* W12: SQLite FTS5 beside ObjDB's full-text index. */
#include "CBaselinesFTS.h"
