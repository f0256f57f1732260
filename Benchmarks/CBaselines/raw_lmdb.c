/* The raw-LMDB baseline: the limit of ObjDB's design (see CBaselines.h for the layout). */
#include "CBaselines.h"
#include "failure.h"

#include <lmdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The largest record the baseline writes: the fixed fields, a lang and a text together this long. */
enum { RECORD_CAPACITY = 4096, FIXED_FIELDS = 25, RETWEETS_OFFSET = 16, LANG_LENGTH_OFFSET = 24 };
/* LMDB's page size here (the operating system's), and how far ahead the bulk load prefetches a text. */
enum { PAGE_SIZE = 4096, PREFETCH_DISTANCE = 8 };

struct bench_lmdb {
    MDB_env *env;
    MDB_dbi table;
    MDB_dbi index;
    char path[4096];
};

static int check(int code, const char *operation, bench_error *error) {
    return code == MDB_SUCCESS ? 0 : bench_fail(error, "%s: %s", operation, mdb_strerror(code));
}

/* MARK: ObjDB's key bytes (Sources/ObjDB/Format/OrderedVarInt.swift) */

/* The bytes `value` needs big-endian without leading zeros (at least 1). */
static int payload_length(uint64_t value) {
    int bits = value == 0 ? 0 : 64 - __builtin_clzll(value);
    int length = (bits + 7) / 8;
    return length < 1 ? 1 : length;
}

static size_t put_big_endian(uint8_t *out, uint64_t value, int count) {
    for (int byte = 0; byte < count; byte++) out[byte] = (uint8_t)(value >> (8 * (count - 1 - byte)));
    return (size_t)count;
}

size_t bench_encode_ordered_int(int64_t value, uint8_t key[BENCH_ORDERED_INT_MAX]) {
    if (value < 0) {
        uint64_t bits = (uint64_t)value;
        int count = payload_length(~bits);
        key[0] = (uint8_t)(9 - count);
        return 1 + put_big_endian(key + 1, bits, count);
    }
    uint64_t unsigned_value = (uint64_t)value;
    if (unsigned_value <= 182) {
        key[0] = (uint8_t)(0x09 + unsigned_value);
        return 1;
    }
    if (unsigned_value <= 12470) {
        uint64_t offset = unsigned_value - 183;
        key[0] = (uint8_t)(0xC0 + (offset >> 8));
        key[1] = (uint8_t)offset;
        return 2;
    }
    uint64_t payload = unsigned_value - 12471;
    int count = payload_length(payload);
    if (count < 2) count = 2;
    key[0] = (uint8_t)(0xEE + count);
    return 1 + put_big_endian(key + 1, payload, count);
}

size_t bench_encode_index_int(int64_t value, uint8_t key[BENCH_INDEX_INT_MAX]) {
    key[0] = 0x01;
    return 1 + bench_encode_ordered_int(value, key + 1);
}

/* MARK: Helpers */

static int64_t load_int64(const uint8_t *bytes) {
    int64_t value;
    memcpy(&value, bytes, sizeof value);
    return value;
}

static void prefetch(const void *start, size_t size) {
    const char *bytes = start;
    for (size_t offset = 0; offset < size; offset += 64) __builtin_prefetch(bytes + offset, 0, 3);
}

/* The record of tweet `i`: its size, and its bytes written into `record` (at least that long). */
static size_t record_size(const bench_tweets *tweets, size_t i) {
    return FIXED_FIELDS + (tweets->lang_offsets[i + 1] - tweets->lang_offsets[i])
        + (tweets->text_offsets[i + 1] - tweets->text_offsets[i]);
}

static int check_record(const bench_tweets *tweets, size_t i, bench_error *error) {
    size_t lang_length = tweets->lang_offsets[i + 1] - tweets->lang_offsets[i];
    if (lang_length > 255 || record_size(tweets, i) > RECORD_CAPACITY) {
        return bench_fail(error, "tweet %zu is too long for a record", i);
    }
    return 0;
}

static void write_record(uint8_t *record, const bench_tweets *tweets, size_t i) {
    size_t lang_length = tweets->lang_offsets[i + 1] - tweets->lang_offsets[i];
    size_t text_length = tweets->text_offsets[i + 1] - tweets->text_offsets[i];
    memcpy(record, &tweets->user_ids[i], 8);
    memcpy(record + 8, &tweets->created_at[i], 8);
    memcpy(record + RETWEETS_OFFSET, &tweets->retweet_counts[i], 8);
    record[LANG_LENGTH_OFFSET] = (uint8_t)lang_length;
    memcpy(record + FIXED_FIELDS, tweets->langs + tweets->lang_offsets[i], lang_length);
    memcpy(record + FIXED_FIELDS + lang_length, tweets->texts + tweets->text_offsets[i], text_length);
}

static int begin_write(bench_lmdb *store, MDB_txn **txn, bench_error *error) {
    return check(mdb_txn_begin(store->env, NULL, 0, txn), "mdb_txn_begin", error);
}

static int begin_read(bench_lmdb *store, MDB_txn **txn, bench_error *error) {
    return check(mdb_txn_begin(store->env, NULL, MDB_RDONLY, txn), "mdb_txn_begin", error);
}

/* Commits `txn` when `status` is 0, aborts it otherwise; returns the outcome. */
static int finish_write(MDB_txn *txn, int status, bench_error *error) {
    if (status) {
        mdb_txn_abort(txn);
        return status;
    }
    return check(mdb_txn_commit(txn), "mdb_txn_commit", error);
}

/* Opens a cursor on each of `dbis` in `txn`; on failure closes those opened. */
static int open_cursors(MDB_txn *txn, const MDB_dbi *dbis, MDB_cursor **cursors, int count, bench_error *error) {
    for (int i = 0; i < count; i++) {
        if (check(mdb_cursor_open(txn, dbis[i], &cursors[i]), "mdb_cursor_open", error)) {
            while (i-- > 0) mdb_cursor_close(cursors[i]);
            return -1;
        }
    }
    return 0;
}

/* MARK: The store */

bench_lmdb *bench_lmdb_open(const char *path, int durable, size_t map_size, bench_error *error) {
    bench_lmdb *store = calloc(1, sizeof *store);
    if (!store) {
        bench_fail(error, "out of memory");
        return NULL;
    }
    snprintf(store->path, sizeof store->path, "%s", path);
    unsigned int flags = MDB_NOSUBDIR | MDB_NOTLS | MDB_NORDAHEAD | (durable ? 0 : MDB_NOSYNC);
    MDB_txn *txn = NULL;
    if (check(mdb_env_create(&store->env), "mdb_env_create", error)) goto failed;
    if (check(mdb_env_set_mapsize(store->env, map_size), "mdb_env_set_mapsize", error)) goto failed;
    if (check(mdb_env_set_maxdbs(store->env, 8), "mdb_env_set_maxdbs", error)) goto failed;
    if (check(mdb_env_open(store->env, path, flags, 0644), "mdb_env_open", error)) goto failed;
    if (check(mdb_txn_begin(store->env, NULL, 0, &txn), "mdb_txn_begin", error)) goto failed;
    if (check(mdb_dbi_open(txn, "tweets", MDB_CREATE, &store->table), "mdb_dbi_open", error)
        || check(mdb_dbi_open(txn, "userId", MDB_CREATE | MDB_DUPSORT, &store->index), "mdb_dbi_open", error)) {
        mdb_txn_abort(txn);
        goto failed;
    }
    if (check(mdb_txn_commit(txn), "mdb_txn_commit", error)) goto failed;
    return store;
failed:
    bench_lmdb_close(store);
    return NULL;
}

void bench_lmdb_close(bench_lmdb *store) {
    if (!store) return;
    if (store->env) mdb_env_close(store->env);
    free(store);
}

/* MARK: W1, W2, W3 */

struct id_order {
    int64_t id;
    size_t index;
};

static int compare_ids(const void *left, const void *right) {
    int64_t a = ((const struct id_order *)left)->id, b = ((const struct id_order *)right)->id;
    return (a > b) - (a < b);
}

/* Puts tweet `i`'s index entry through `cursor`. */
static int put_index_entry(MDB_cursor *cursor, const bench_tweets *tweets, size_t i, bench_error *error) {
    uint8_t user[BENCH_INDEX_INT_MAX], key[BENCH_ORDERED_INT_MAX];
    MDB_val user_value = {bench_encode_index_int(tweets->user_ids[i], user), user};
    MDB_val entry_value = {bench_encode_ordered_int(tweets->ids[i], key), key};
    return check(mdb_cursor_put(cursor, &user_value, &entry_value, 0), "mdb_cursor_put", error);
}

int bench_lmdb_bulk_insert(bench_lmdb *store, const bench_tweets *tweets, bench_error *error) {
    struct id_order *order = malloc((tweets->count ? tweets->count : 1) * sizeof *order);
    if (!order) return bench_fail(error, "out of memory");
    for (size_t i = 0; i < tweets->count; i++) order[i] = (struct id_order){tweets->ids[i], i};
    /* OrderedVarInt preserves the order of ids, so this is key order. */
    qsort(order, tweets->count, sizeof *order, compare_ids);
    MDB_txn *txn;
    MDB_cursor *cursors[2];
    if (begin_write(store, &txn, error)) {
        free(order);
        return -1;
    }
    MDB_dbi dbis[2] = {store->index, store->table};
    if (open_cursors(txn, dbis, cursors, 2, error)) {
        free(order);
        return finish_write(txn, -1, error);
    }
    int status = 0;
    for (size_t i = 0; i < tweets->count && !status; i++) status = put_index_entry(cursors[0], tweets, i, error);
    for (size_t position = 0; position < tweets->count && !status; position++) {
        /* Key order visits the columns at random: ask for a later tweet's text now (as ObjDB's load
           prefetches its held entries). */
        if (position + PREFETCH_DISTANCE < tweets->count) {
            size_t ahead = order[position + PREFETCH_DISTANCE].index;
            prefetch(tweets->texts + tweets->text_offsets[ahead], 64);
        }
        size_t i = order[position].index;
        if ((status = check_record(tweets, i, error))) break;
        uint8_t key[BENCH_ORDERED_INT_MAX];
        MDB_val key_value = {bench_encode_ordered_int(tweets->ids[i], key), key};
        MDB_val record = {record_size(tweets, i), NULL};
        status = check(mdb_cursor_put(cursors[1], &key_value, &record, MDB_APPEND | MDB_RESERVE), "mdb_cursor_put",
                       error);
        if (!status) write_record(record.mv_data, tweets, i);
    }
    mdb_cursor_close(cursors[0]);
    mdb_cursor_close(cursors[1]);
    free(order);
    return finish_write(txn, status, error);
}

int bench_lmdb_single_inserts(
    bench_lmdb *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error) {
    for (size_t i = start; i < end; i++) {
        MDB_txn *txn;
        if (check_record(tweets, i, error) || begin_write(store, &txn, error)) return -1;
        uint8_t key[BENCH_ORDERED_INT_MAX], user[BENCH_INDEX_INT_MAX];
        MDB_val key_value = {bench_encode_ordered_int(tweets->ids[i], key), key};
        MDB_val record = {record_size(tweets, i), NULL};
        int status = check(mdb_put(txn, store->table, &key_value, &record, MDB_NOOVERWRITE | MDB_RESERVE), "mdb_put",
                           error);
        if (!status) {
            write_record(record.mv_data, tweets, i);
            MDB_val user_value = {bench_encode_index_int(tweets->user_ids[i], user), user};
            status = check(mdb_put(txn, store->index, &user_value, &key_value, 0), "mdb_put", error);
        }
        if (finish_write(txn, status, error)) return -1;
    }
    return 0;
}

/* MARK: W4, W5, W6 */

int bench_lmdb_point_reads(
    bench_lmdb *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error) {
    MDB_txn *txn;
    if (begin_read(store, &txn, error)) return -1;
    uint8_t key[BENCH_ORDERED_INT_MAX];
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count; i++) {
        MDB_val key_value = {bench_encode_ordered_int(ids[i], key), key}, record;
        int code = mdb_get(txn, store->table, &key_value, &record);
        if (code) {
            status = code == MDB_NOTFOUND ? bench_fail(error, "tweet %lld is missing", (long long)ids[i])
                                          : check(code, "mdb_get", error);
            break;
        }
        prefetch(record.mv_data, record.mv_size);
        const uint8_t *bytes = record.mv_data;
        size_t text_start = FIXED_FIELDS + bytes[LANG_LENGTH_OFFSET];
        bench_mix(&sum, bench_hash_bytes(bytes + text_start, record.mv_size - text_start));
    }
    mdb_txn_abort(txn);
    *checksum = sum;
    return status;
}

int bench_lmdb_indexed_queries(
    bench_lmdb *store, const int64_t *users, size_t count, uint64_t *checksum, bench_error *error) {
    MDB_txn *txn;
    MDB_cursor *cursor;
    if (begin_read(store, &txn, error)) return -1;
    if (check(mdb_cursor_open(txn, store->index, &cursor), "mdb_cursor_open", error)) {
        mdb_txn_abort(txn);
        return -1;
    }
    uint8_t user[BENCH_INDEX_INT_MAX];
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        MDB_val user_value = {bench_encode_index_int(users[i], user), user}, entry;
        int code = mdb_cursor_get(cursor, &user_value, &entry, MDB_SET_KEY);
        while (code == MDB_SUCCESS) {
            MDB_val record;
            if (mdb_get(txn, store->table, &entry, &record)) {
                status = bench_fail(error, "an index entry points nowhere");
                break;
            }
            bench_mix(&sum, (uint64_t)load_int64((const uint8_t *)record.mv_data + RETWEETS_OFFSET));
            code = mdb_cursor_get(cursor, &user_value, &entry, MDB_NEXT_DUP);
        }
        if (!status && code != MDB_NOTFOUND) status = check(code, "mdb_cursor_get", error);
    }
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    *checksum = sum;
    return status;
}

int bench_lmdb_filtered_scan(bench_lmdb *store, uint64_t *matches, bench_error *error) {
    MDB_txn *txn;
    MDB_cursor *cursor;
    if (begin_read(store, &txn, error)) return -1;
    if (check(mdb_cursor_open(txn, store->table, &cursor), "mdb_cursor_open", error)) {
        mdb_txn_abort(txn);
        return -1;
    }
    MDB_val key, record;
    uint64_t found = 0;
    uintptr_t page = 0;
    int ahead = 0; /* whether the pages after `page` were asked for */
    int code = mdb_cursor_get(cursor, &key, &record, MDB_FIRST);
    while (code == MDB_SUCCESS) {
        /* A leaf keeps its entries in insertion order, not key order: ask for the whole page on
           entering it out of order, so the row loads overlap, and for the two pages after it in the
           file too once the walk steps from page to adjacent page (as ObjDB's scan does). */
        uintptr_t here = (uintptr_t)record.mv_data & ~(uintptr_t)(PAGE_SIZE - 1);
        if (here != page) {
            int sequential = here == page + PAGE_SIZE;
            page = here;
            if (sequential && ahead)
                prefetch((const void *)(page + PAGE_SIZE), 2 * PAGE_SIZE);
            else if (sequential)
                prefetch((const void *)page, 3 * PAGE_SIZE);
            else
                prefetch((const void *)page, PAGE_SIZE);
            ahead = sequential;
        }
        const uint8_t *bytes = record.mv_data;
        if (load_int64(bytes + RETWEETS_OFFSET) > 50 && bytes[LANG_LENGTH_OFFSET] == 2 && bytes[FIXED_FIELDS] == 'e'
            && bytes[FIXED_FIELDS + 1] == 'n')
            found++;
        code = mdb_cursor_get(cursor, &key, &record, MDB_NEXT);
    }
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    *matches = found;
    return code == MDB_NOTFOUND ? 0 : check(code, "mdb_cursor_get", error);
}

/* MARK: W7, W8 */

/* Positions `cursor` at `id`'s record (MDB_SET), which it returns in `record`; fails when missing. */
static int seek_tweet(MDB_cursor *cursor, int64_t id, uint8_t key[BENCH_ORDERED_INT_MAX], MDB_val *key_value,
                      MDB_val *record, bench_error *error) {
    *key_value = (MDB_val){bench_encode_ordered_int(id, key), key};
    int code = mdb_cursor_get(cursor, key_value, record, MDB_SET);
    if (code == MDB_NOTFOUND) return bench_fail(error, "tweet %lld is missing", (long long)id);
    if (check(code, "mdb_cursor_get", error)) return -1;
    prefetch(record->mv_data, record->mv_size);
    return 0;
}

int bench_lmdb_updates(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error) {
    MDB_txn *txn;
    MDB_cursor *cursor;
    if (begin_write(store, &txn, error)) return -1;
    if (open_cursors(txn, &store->table, &cursor, 1, error)) return finish_write(txn, -1, error);
    uint8_t key[BENCH_ORDERED_INT_MAX], record[RECORD_CAPACITY];
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        MDB_val key_value, stored;
        if ((status = seek_tweet(cursor, ids[i], key, &key_value, &stored, error))) break;
        if (stored.mv_size > RECORD_CAPACITY) {
            status = bench_fail(error, "a stored record is too long");
            break;
        }
        /* The stored bytes belong to the map: change a copy and put it where the cursor stands,
           with no second descent. */
        memcpy(record, stored.mv_data, stored.mv_size);
        int64_t retweets = load_int64(record + RETWEETS_OFFSET) + 1;
        memcpy(record + RETWEETS_OFFSET, &retweets, 8);
        MDB_val changed = {stored.mv_size, record};
        status = check(mdb_cursor_put(cursor, &key_value, &changed, MDB_CURRENT), "mdb_cursor_put", error);
    }
    mdb_cursor_close(cursor);
    return finish_write(txn, status, error);
}

int bench_lmdb_deletes(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error) {
    MDB_txn *txn;
    MDB_cursor *cursors[2];
    if (begin_write(store, &txn, error)) return -1;
    MDB_dbi dbis[2] = {store->table, store->index};
    if (open_cursors(txn, dbis, cursors, 2, error)) return finish_write(txn, -1, error);
    uint8_t key[BENCH_ORDERED_INT_MAX], user[BENCH_INDEX_INT_MAX];
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        MDB_val key_value, stored;
        if ((status = seek_tweet(cursors[0], ids[i], key, &key_value, &stored, error))) break;
        MDB_val user_value = {bench_encode_index_int(load_int64(stored.mv_data), user), user};
        MDB_val entry_value = key_value;
        int code = mdb_cursor_get(cursors[1], &user_value, &entry_value, MDB_GET_BOTH);
        if (code == MDB_NOTFOUND) {
            status = bench_fail(error, "tweet %lld has no index entry", (long long)ids[i]);
            break;
        }
        status = check(code, "mdb_cursor_get", error);
        if (!status) status = check(mdb_cursor_del(cursors[1], 0), "mdb_cursor_del", error);
        if (!status) status = check(mdb_cursor_del(cursors[0], 0), "mdb_cursor_del", error);
    }
    mdb_cursor_close(cursors[0]);
    mdb_cursor_close(cursors[1]);
    return finish_write(txn, status, error);
}

/* MARK: Checks and layout */

int bench_lmdb_census(bench_lmdb *store, bench_census *census, bench_error *error) {
    MDB_txn *txn;
    MDB_cursor *cursor;
    if (begin_read(store, &txn, error)) return -1;
    MDB_stat table, index;
    int status = check(mdb_stat(txn, store->table, &table), "mdb_stat", error);
    if (!status) status = check(mdb_stat(txn, store->index, &index), "mdb_stat", error);
    if (!status) status = check(mdb_cursor_open(txn, store->table, &cursor), "mdb_cursor_open", error);
    if (status) {
        mdb_txn_abort(txn);
        return -1;
    }
    MDB_val key, record;
    int64_t sum = 0;
    uint64_t rows = 0;
    int code = mdb_cursor_get(cursor, &key, &record, MDB_FIRST);
    for (; code == MDB_SUCCESS; code = mdb_cursor_get(cursor, &key, &record, MDB_NEXT), rows++) {
        sum += load_int64((const uint8_t *)record.mv_data + RETWEETS_OFFSET);
    }
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    if (code != MDB_NOTFOUND) return check(code, "mdb_cursor_get", error);
    if (rows != table.ms_entries) return bench_fail(error, "the table counts %zu entries, a scan %llu", table.ms_entries,
                                                    (unsigned long long)rows);
    *census = (bench_census){rows, index.ms_entries, sum};
    return 0;
}

static void describe(bench_lmdb_tree *tree, const char *name, const MDB_stat *stat) {
    snprintf(tree->name, sizeof tree->name, "%s", name);
    tree->depth = stat->ms_depth;
    tree->branch_pages = stat->ms_branch_pages;
    tree->leaf_pages = stat->ms_leaf_pages;
    tree->overflow_pages = stat->ms_overflow_pages;
    tree->entries = stat->ms_entries;
}

int bench_lmdb_layout(bench_lmdb *store, bench_lmdb_tree trees[3], bench_error *error) {
    MDB_txn *txn;
    if (begin_read(store, &txn, error)) return -1;
    MDB_stat main, table, index;
    MDB_dbi main_dbi;
    int status = check(mdb_dbi_open(txn, NULL, 0, &main_dbi), "mdb_dbi_open", error);
    if (!status) status = check(mdb_stat(txn, main_dbi, &main), "mdb_stat", error);
    if (!status) status = check(mdb_stat(txn, store->table, &table), "mdb_stat", error);
    if (!status) status = check(mdb_stat(txn, store->index, &index), "mdb_stat", error);
    mdb_txn_abort(txn);
    if (status) return -1;
    describe(&trees[0], "(main)", &main);
    describe(&trees[1], "tweets", &table);
    describe(&trees[2], "userId", &index);
    return 0;
}

int64_t bench_lmdb_file_size(const bench_lmdb *store) {
    struct stat status;
    return stat(store->path, &status) == 0 ? (int64_t)status.st_size : 0;
}
