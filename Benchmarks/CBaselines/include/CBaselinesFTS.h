/*
 * W12's baseline: SQLite FTS5 in C, over the same tweets as ObjDB's full-text index.
 *
 * Table tweets (id INTEGER PRIMARY KEY, text, retweetCount, createdAt), then an external-content
 * FTS5 table over its text (content='tweets', content_rowid='id') with the unicode61 tokenizer,
 * remove_diacritics 2, and tokenchars '#@_:/.' so that hashtags, mentions and links are tokens as
 * ObjDB's tokenizer makes them. Statements are prepared once; no call allocates per row.
 */
#ifndef OBJDB_BENCH_CBASELINES_FTS_H
#define OBJDB_BENCH_CBASELINES_FTS_H

#include "CBaselines.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_fts bench_fts;

/* What bench_fts_query runs with its text. */
typedef enum {
    /* The rowids MATCH finds, in rowid order. */
    BENCH_FTS_MATCH = 0,
    /* The 20 best by bm25 (ties by rowid). */
    BENCH_FTS_TOP20 = 1,
    /* MATCH joined with tweets, retweetCount > 50, newest first. */
    BENCH_FTS_FILTERED = 2,
    /* The number of tweets whose text is LIKE '%text%' (a scan; `count` only). */
    BENCH_FTS_LIKE = 3,
} bench_fts_query_kind;

/* Creates the database at `path` (WAL, synchronous OFF, 1 GiB cache) with the tweets table. */
bench_fts *bench_fts_open(const char *path, bench_error *error);
void bench_fts_close(bench_fts *store);
/* Inserts tweets [0, count) in one transaction: ids, UTF-8 texts[offsets[i] ..< offsets[i + 1]], … */
int bench_fts_load(
    bench_fts *store, const int64_t *ids, const uint8_t *texts, const size_t *offsets, const int64_t *retweet_counts,
    const double *created_at, size_t count, bench_error *error);
/* Creates the FTS5 table and builds its index from every row ('rebuild'), in one transaction. */
int bench_fts_build(bench_fts *store, bench_error *error);
/* The FTS5 index's size in bytes: its shadow tables' pages (dbstat), the content table aside. */
int64_t bench_fts_index_size(bench_fts *store);
/* Runs one query; writes up to `capacity` ids to `ids` and how many rows it found to `count`. */
int bench_fts_query(
    bench_fts *store, bench_fts_query_kind kind, const char *text, int64_t *ids, size_t capacity, size_t *count,
    bench_error *error);

#ifdef __cplusplus
}
#endif

#endif
