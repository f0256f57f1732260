/* The raw-LMDB baseline: the limit of ObjDB's design (see CBaselines.h for the layout). */
#include "CBaselines.h"
#include "failure.h"

#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The largest record the baseline writes: the fixed fields, a lang and a text together this long. */
enum { RECORD_CAPACITY = 4096, FIXED_FIELDS = 25, KEY_SIZE = 9 };

struct bench_lmdb {
    MDB_env *env;
    MDB_dbi table;
    MDB_dbi index;
    char path[4096];
};

static int check(int code, const char *operation, bench_error *error) {
    return code == MDB_SUCCESS ? 0 : bench_fail(error, "%s: %s", operation, mdb_strerror(code));
}

/* ObjDB's primary key of an Int64: a one-byte tag, then the id with its sign bit flipped, big-endian. */
static void encode_key(uint8_t key[KEY_SIZE], int64_t id) {
    uint64_t bits = (uint64_t)id ^ (1ULL << 63);
    key[0] = 1;
    for (int byte = 0; byte < 8; byte++) key[1 + byte] = (uint8_t)(bits >> (56 - 8 * byte));
}

static void encode_user(uint8_t user[8], int64_t user_id) {
    uint64_t bits = (uint64_t)user_id;
    for (int byte = 0; byte < 8; byte++) user[byte] = (uint8_t)(bits >> (56 - 8 * byte));
}

static int64_t load_int64(const uint8_t *bytes) {
    int64_t value;
    memcpy(&value, bytes, sizeof value);
    return value;
}

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

/* Writes tweet `i` and its index entry, from buffers on the caller's stack. */
/* Puts tweet `i`'s record under `flags`, and, when `indexed`, its index entry. */
static int put_tweet_parts(
    bench_lmdb *store, MDB_txn *txn, const bench_tweets *tweets, size_t i, unsigned int flags, int indexed,
    bench_error *error) {
    uint8_t key[KEY_SIZE], user[8], record[RECORD_CAPACITY];
    size_t lang_length = tweets->lang_offsets[i + 1] - tweets->lang_offsets[i];
    size_t text_length = tweets->text_offsets[i + 1] - tweets->text_offsets[i];
    size_t size = FIXED_FIELDS + lang_length + text_length;
    if (lang_length > 255 || size > RECORD_CAPACITY) return bench_fail(error, "tweet %zu is too long for a record", i);
    memcpy(record, &tweets->user_ids[i], 8);
    memcpy(record + 8, &tweets->created_at[i], 8);
    memcpy(record + 16, &tweets->retweet_counts[i], 8);
    record[24] = (uint8_t)lang_length;
    memcpy(record + FIXED_FIELDS, tweets->langs + tweets->lang_offsets[i], lang_length);
    memcpy(record + FIXED_FIELDS + lang_length, tweets->texts + tweets->text_offsets[i], text_length);
    encode_key(key, tweets->ids[i]);
    encode_user(user, tweets->user_ids[i]);
    MDB_val key_value = {KEY_SIZE, key}, record_value = {size, record};
    MDB_val user_value = {8, user}, entry_value = {KEY_SIZE, key};
    if (check(mdb_put(txn, store->table, &key_value, &record_value, flags), "mdb_put", error)) return -1;
    if (!indexed) return 0;
    return check(mdb_put(txn, store->index, &user_value, &entry_value, 0), "mdb_put", error);
}

static int put_tweet(bench_lmdb *store, MDB_txn *txn, const bench_tweets *tweets, size_t i, bench_error *error) {
    return put_tweet_parts(store, txn, tweets, i, 0, 1, error);
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

int bench_lmdb_bulk_insert(bench_lmdb *store, const bench_tweets *tweets, bench_error *error) {
    MDB_txn *txn;
    if (begin_write(store, &txn, error)) return -1;
    int status = 0;
    for (size_t i = 0; i < tweets->count && !status; i++) status = put_tweet(store, txn, tweets, i, error);
    return finish_write(txn, status, error);
}

struct id_order {
    int64_t id;
    size_t index;
};

static int compare_ids(const void *left, const void *right) {
    int64_t a = ((const struct id_order *)left)->id, b = ((const struct id_order *)right)->id;
    return (a > b) - (a < b);
}

int bench_lmdb_bulk_insert_sorted(bench_lmdb *store, const bench_tweets *tweets, bench_error *error) {
    struct id_order *order = malloc(tweets->count * sizeof *order);
    if (!order && tweets->count) return bench_fail(error, "out of memory");
    for (size_t i = 0; i < tweets->count; i++) order[i] = (struct id_order){tweets->ids[i], i};
    /* The key encoding preserves the order of ids, so this is key order. */
    qsort(order, tweets->count, sizeof *order, compare_ids);
    MDB_txn *txn;
    if (begin_write(store, &txn, error)) {
        free(order);
        return -1;
    }
    int status = 0;
    for (size_t i = 0; i < tweets->count && !status; i++) {
        MDB_val user_value, entry_value;
        uint8_t key[KEY_SIZE], user[8];
        encode_key(key, tweets->ids[i]);
        encode_user(user, tweets->user_ids[i]);
        user_value = (MDB_val){8, user};
        entry_value = (MDB_val){KEY_SIZE, key};
        status = check(mdb_put(txn, store->index, &user_value, &entry_value, 0), "mdb_put", error);
    }
    for (size_t i = 0; i < tweets->count && !status; i++) {
        status = put_tweet_parts(store, txn, tweets, order[i].index, MDB_APPEND, 0, error);
    }
    free(order);
    return finish_write(txn, status, error);
}

int bench_lmdb_single_inserts(
    bench_lmdb *store, const bench_tweets *tweets, size_t start, size_t end, bench_error *error) {
    for (size_t i = start; i < end; i++) {
        MDB_txn *txn;
        if (begin_write(store, &txn, error)) return -1;
        if (finish_write(txn, put_tweet(store, txn, tweets, i, error), error)) return -1;
    }
    return 0;
}

int bench_lmdb_point_reads(
    bench_lmdb *store, const int64_t *ids, size_t count, uint64_t *checksum, bench_error *error) {
    MDB_txn *txn;
    if (begin_read(store, &txn, error)) return -1;
    uint8_t key[KEY_SIZE];
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count; i++) {
        encode_key(key, ids[i]);
        MDB_val key_value = {KEY_SIZE, key}, record;
        int code = mdb_get(txn, store->table, &key_value, &record);
        if (code) {
            status = code == MDB_NOTFOUND ? bench_fail(error, "tweet %lld is missing", (long long)ids[i])
                                          : check(code, "mdb_get", error);
            break;
        }
        const uint8_t *bytes = record.mv_data;
        bench_mix(&sum, (uint64_t)(record.mv_size - FIXED_FIELDS - bytes[24]));
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
    uint8_t user[8];
    uint64_t sum = 0;
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        encode_user(user, users[i]);
        MDB_val user_value = {8, user}, entry;
        int code = mdb_cursor_get(cursor, &user_value, &entry, MDB_SET_KEY);
        while (code == MDB_SUCCESS) {
            MDB_val record;
            if (mdb_get(txn, store->table, &entry, &record)) {
                status = bench_fail(error, "an index entry points nowhere");
                break;
            }
            bench_mix(&sum, (uint64_t)load_int64((const uint8_t *)record.mv_data + 16));
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
    int code = mdb_cursor_get(cursor, &key, &record, MDB_FIRST);
    while (code == MDB_SUCCESS) {
        const uint8_t *bytes = record.mv_data;
        if (load_int64(bytes + 16) > 50 && bytes[24] == 2 && bytes[25] == 'e' && bytes[26] == 'n') found++;
        code = mdb_cursor_get(cursor, &key, &record, MDB_NEXT);
    }
    mdb_cursor_close(cursor);
    mdb_txn_abort(txn);
    *matches = found;
    return code == MDB_NOTFOUND ? 0 : check(code, "mdb_cursor_get", error);
}

/* Looks up `id`'s record for a write: 1 when found (its key in `key`), 0 when not stored, -1 on failure. */
static int find_stored(
    bench_lmdb *store, MDB_txn *txn, int64_t id, uint8_t key[KEY_SIZE], MDB_val *stored, bench_error *error) {
    encode_key(key, id);
    MDB_val key_value = {KEY_SIZE, key};
    int code = mdb_get(txn, store->table, &key_value, stored);
    if (code == MDB_NOTFOUND) return 0;
    return check(code, "mdb_get", error) ? -1 : 1;
}

int bench_lmdb_updates(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error) {
    MDB_txn *txn;
    if (begin_write(store, &txn, error)) return -1;
    uint8_t key[KEY_SIZE], record[RECORD_CAPACITY];
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        MDB_val stored;
        int found = find_stored(store, txn, ids[i], key, &stored, error);
        if (found <= 0) {
            status = found;
            continue;
        }
        if (stored.mv_size > RECORD_CAPACITY) {
            status = bench_fail(error, "a stored record is too long");
            break;
        }
        /* The stored bytes belong to the map: change a copy and put it back. */
        memcpy(record, stored.mv_data, stored.mv_size);
        int64_t retweets = load_int64(record + 16) + 1;
        memcpy(record + 16, &retweets, 8);
        MDB_val key_value = {KEY_SIZE, key}, changed = {stored.mv_size, record};
        status = check(mdb_put(txn, store->table, &key_value, &changed, 0), "mdb_put", error);
    }
    return finish_write(txn, status, error);
}

int bench_lmdb_deletes(bench_lmdb *store, const int64_t *ids, size_t count, bench_error *error) {
    MDB_txn *txn;
    if (begin_write(store, &txn, error)) return -1;
    uint8_t key[KEY_SIZE], user[8];
    int status = 0;
    for (size_t i = 0; i < count && !status; i++) {
        MDB_val stored;
        int found = find_stored(store, txn, ids[i], key, &stored, error);
        if (found <= 0) {
            status = found;
            continue;
        }
        encode_user(user, load_int64(stored.mv_data));
        MDB_val user_value = {8, user}, entry_value = {KEY_SIZE, key}, key_value = {KEY_SIZE, key};
        status = check(mdb_del(txn, store->index, &user_value, &entry_value), "mdb_del", error);
        if (!status) status = check(mdb_del(txn, store->table, &key_value, NULL), "mdb_del", error);
    }
    return finish_write(txn, status, error);
}

int64_t bench_lmdb_file_size(const bench_lmdb *store) {
    struct stat status;
    return stat(store->path, &status) == 0 ? (int64_t)status.st_size : 0;
}
