/*
 * tests/kv/kv_peers.c - peers outside the job (gshmem_kv_local_info,
 * gshmem_kv_peer_add, gshmem_kv_peer_remove) between two jobs started by
 * separate launcher commands (kv-two-jobs.sh starts both):
 *
 *   kv_peers serve DIR   each PE registers a pool of private memory, writes
 *                        its blob to DIR/info.<pe>, serves until
 *                        DIR/done.<pe> appears, then checks the blocks the
 *                        other job wrote into it;
 *   kv_peers serve-listen DIR   as serve, and also listens (gshmem_kv_listen,
 *                        secret $KV_PEERS_SECRET, at $KV_PEERS_LISTEN or
 *                        127.0.0.1:0) and writes where to DIR/addr.<pe>;
 *   kv_peers pull-connect DIR   as pull, but the peer comes from
 *                        gshmem_kv_connect (after a wrong secret and a port
 *                        where nothing listens are refused);
 *   kv_peers serve-die DIR 1, pull-restart DIR, serve DIR 2: kill and
 *                        restart (pull_restart says what is checked);
 *   kv_peers pull DIR    PE k adds the blob of the server's PE k, reads
 *                        blocks (a slice of some, whole runs of others:
 *                        coalesced), writes blocks back, and tries the bad
 *                        inputs: a blob cut short or changed, a made-up
 *                        peer, a signal, a layout the blob lacks, a block out
 *                        of range, a removed peer (over verbs, a blob whose
 *                        token is not its engine's); first, on an engine of
 *                        its own, a GSHMEM_KV_VERBS that is no address and
 *                        one that is on no RDMA device.
 *
 * Signals and messages: pull's read of runs sets the server's signal word
 * 1 to 77 once the data is here, its write back adds 5 to word 0 after the
 * data, and it sends the server two messages; the server (which never
 * added the puller) checks both words and both messages, in order, from
 * an engine it does not know (peer -1) and the puller's PE.
 *
 * Both jobs have the same number of PEs.  Every byte of both pools is
 * checked.  Exit 0, 1 (a check failed) by pt_finish.
 */
#include "kv_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define LAYERS 4
#define RPL 2
#define BLOCKS 16
#define BYTES 256
#define SERVE_TAG 1
#define PULL_TAG 2
#define WAIT_S 120
#define SIG_ADD 5
#define SIG_SET 77
#define LONG_MSG GSHMEM_KV_MSG_MAX

static void text_of(char *buf, size_t cap, int pe)
{
    snprintf(buf, cap, "pulled by PE %d", pe);
}

/* The long message's byte i from PE pe. */
static unsigned char long_pat(int pe, size_t i)
{
    return (unsigned char)(i * 7 + (size_t)pe * 31 + 1);
}

/* The round of a kill-and-restart run ("1", "2"); "" otherwise. */
static const char *round_ = "";

static char *path_of(const char *dir, const char *what, int pe)
{
    static char buf[4096];

    snprintf(buf, sizeof buf, "%s/%s%s.%d", dir, what, round_, pe);
    return buf;
}

static uint64_t kt_now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

    nanosleep(&ts, NULL);
}

/* Waits for path to exist; 0, or -1 after WAIT_S seconds. */
static int await(const char *path)
{
    struct stat st;

    for (int i = 0; i < WAIT_S * 100; i++) {
        if (stat(path, &st) == 0)
            return 0;
        sleep_ms(10);
    }
    fprintf(stderr, "kv_peers: PE %d: %s did not appear in %d s\n", pt_me, path, WAIT_S);
    return -1;
}

/* Writes len bytes to path whole (a rename: the reader sees all or nothing). */
static void publish(const char *path, const void *buf, size_t len)
{
    char tmp[4200];
    FILE *f;

    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "kv_peers: PE %d: cannot write %s: %s\n", pt_me, path, strerror(errno));
        shmem_global_exit(1);
    }
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;

    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(buf = (unsigned char *)malloc((size_t)n)) ||
        fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "kv_peers: PE %d: cannot read %s\n", pt_me, path);
        shmem_global_exit(1);
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* The blocks the puller writes (none of them read into): its 12..15 to the
 * server's 8..11, region 0. */
static const int64_t w_local[] = {12, 13, 14, 15}, w_remote[] = {8, 9, 10, 11};

static gshmem_kv_xfer_t write_xfer(int layout, int peer)
{
    gshmem_kv_xfer_t x = {0};

    x.layout = layout, x.pe = peer, x.layer_first = 0, x.n_layers = LAYERS;
    x.region_mask = 1, x.n = 4, x.local_blocks = w_local, x.remote_blocks = w_remote;
    return x;
}

/* The secret of the listen/connect roles (kv-two-jobs.sh sets it). */
static const char *secret(void)
{
    const char *s = getenv("KV_PEERS_SECRET");

    return s ? s : "kv_peers: no KV_PEERS_SECRET in the environment";
}

/* What pull sent this PE: signal words 0 and 1, two messages. */
static void check_signals_and_messages(gshmem_kv_t *kv)
{
    uint64_t *add = gshmem_kv_signal_word(kv, 0), *set = gshmem_kv_signal_word(kv, 1);
    static gshmem_kv_msg_t m[4];
    char text[64];
    size_t n = 99;
    int bad = 0;

    PT_CHECK_EQ("signal word 0 (a write's signal, add)", (uint64_t)SIG_ADD,
                __atomic_load_n(add, __ATOMIC_ACQUIRE));
    PT_CHECK_EQ("signal word 1 (a read's signal, set)", (uint64_t)SIG_SET,
                __atomic_load_n(set, __ATOMIC_ACQUIRE));
    PT_CHECK_EQ("gshmem_kv_msg_recv", 0, gshmem_kv_msg_recv(kv, m, 4, &n));
    PT_CHECK_EQ("gshmem_kv_msg_recv: messages", (size_t)2, n);
    if (n != 2)
        return;
    text_of(text, sizeof text, pt_me);
    PT_CHECK_EQ("message 0: length", strlen(text), m[0].len);
    PT_CHECK("message 0", memcmp(m[0].data, text, strlen(text)) == 0, text);
    PT_CHECK_EQ("message 0: peer (an engine this one never added)", -1, m[0].peer);
    PT_CHECK_EQ("message 0: the sender's PE", pt_me, m[0].pe);
    PT_CHECK("message 0: the sender's engine", m[0].engine != 0, "not 0");
    PT_CHECK_EQ("message 1: length", (size_t)LONG_MSG, m[1].len);
    for (size_t i = 0; i < m[1].len; i++)
        bad += m[1].data[i] != long_pat(pt_me, i);
    PT_CHECK_EQ("message 1: bytes that differ", 0, bad);
    PT_CHECK_EQ("message 1: the same engine", m[0].engine, m[1].engine);
    PT_CHECK_EQ("gshmem_kv_msg_recv (nothing more)", 0, gshmem_kv_msg_recv(kv, m, 4, &n));
    PT_CHECK_EQ("gshmem_kv_msg_recv: messages", (size_t)0, n);
}

static int serve(gshmem_kv_t *kv, kt_pool_t *pool, const char *dir, int die, int listen)
{
    unsigned char *exp = (unsigned char *)malloc(pool->size), *blob;
    size_t len = 0;
    int id = -1;
    gshmem_kv_xfer_t x;
    kt_pool_t puller = *pool;

    kt_fill(pool, pt_me, SERVE_TAG);
    PT_CHECK_EQ("gshmem_kv_layout_register", 0,
                gshmem_kv_layout_register(kv, &pool->layout, &id));
    PT_CHECK_EQ("gshmem_kv_local_info", 0, gshmem_kv_local_info(kv, NULL, 0, &len));
    blob = (unsigned char *)malloc(len);
    PT_CHECK_EQ("gshmem_kv_local_info", GSHMEM_KV_ERR_RANGE,
                gshmem_kv_local_info(kv, blob, len - 1, &len));
    PT_CHECK_EQ("gshmem_kv_local_info", 0, gshmem_kv_local_info(kv, blob, len, &len));
    publish(path_of(dir, "info", pt_me), blob, len);
    if (listen) {
        /* kv-netns.sh listens on the namespace's own address. */
        const char *where = getenv("KV_PEERS_LISTEN") ? getenv("KV_PEERS_LISTEN")
                                                      : "127.0.0.1:0";
        char bound[300];

        PT_CHECK_EQ("gshmem_kv_listen (short secret)", GSHMEM_KV_ERR_INVALID,
                    gshmem_kv_listen(kv, where, "short", NULL, 0));
        PT_CHECK_EQ("gshmem_kv_listen", 0,
                    gshmem_kv_listen(kv, where, secret(), bound, sizeof bound));
        PT_CHECK_EQ("gshmem_kv_listen (twice)", GSHMEM_KV_ERR_STATE,
                    gshmem_kv_listen(kv, where, secret(), NULL, 0));
        publish(path_of(dir, "addr", pt_me), bound, strlen(bound) + 1);
    }
    if (die) {
        /* Dies mid-job once the puller has used it, without a word to
         * anyone (as a killed decode or prefill process would). */
        if (await(path_of(dir, "ready", pt_me)) == 0)
            _exit(3);
        PT_CHECK("kv_peers serve-die", 0, "the puller's ready file");
    }
    if (await(path_of(dir, "done", pt_me)) != 0)
        PT_CHECK("kv_peers serve", 0, "the puller's done file");
    check_signals_and_messages(kv);
    /* The puller's pool has this shape and its own pattern. */
    for (size_t o = 0; o < pool->size; o++)
        exp[o] = kt_pat(pt_me, SERVE_TAG, o);
    x = write_xfer(id, 0);
    kt_apply(pool, exp, &puller, pt_me + 100, PULL_TAG, &x, w_remote, w_local);
    kt_check_pool("gshmem_kv_write from the other job", pool, exp);
    free(exp), free(blob);
    return id;
}

/* GSHMEM_KV_VERBS's address, or NULL where verbs are off. */
static const char *verbs_addr(void)
{
    const char *v = getenv("GSHMEM_KV_VERBS");

    return v && *v && strcmp(v, "off") ? v : NULL;
}

/* Where the blob's verbs listener (kv_verbs.h's kv_vb_addr_t: a 28-byte
 * sockaddr, its u32 length, then the 16-byte token) starts: the first
 * sockaddr_in of GSHMEM_KV_VERBS's address; 0 when verbs are off or none. */
static size_t verbs_listener_at(const unsigned char *blob, size_t len)
{
    const char *v = verbs_addr();
    struct sockaddr_in sa = {.sin_family = AF_INET};

    if (!v || inet_pton(AF_INET, v, &sa.sin_addr) != 1)
        return 0;
    for (size_t i = 8; i + 52 <= len; i += 4)
        if (!memcmp(blob + i, &sa.sin_family, sizeof sa.sin_family) &&
            !memcmp(blob + i + 4, &sa.sin_addr, sizeof sa.sin_addr))
            return i;
    return 0;
}

static void bad_inputs(gshmem_kv_t *kv, int id, int peer, const unsigned char *blob, size_t len)
{
    unsigned char *bad = (unsigned char *)malloc(len);
    int64_t b0 = 0, b16 = BLOCKS;
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_t req = 0;
    uint64_t word = 0;
    int p = -1, id2 = -1;
    kt_pool_t other;

    PT_CHECK_EQ("gshmem_kv_peer_add (cut short)", GSHMEM_KV_ERR_INVALID,
                gshmem_kv_peer_add(kv, blob, len - 8, &p));
    memcpy(bad, blob, len);
    bad[0] ^= 0xff;
    PT_CHECK_EQ("gshmem_kv_peer_add (bad magic)", GSHMEM_KV_ERR_INVALID,
                gshmem_kv_peer_add(kv, bad, len, &p));
    PT_CHECK_EQ("gshmem_kv_peer_add (NULL)", GSHMEM_KV_ERR_INVALID,
                gshmem_kv_peer_add(kv, NULL, len, &p));
    if (verbs_addr()) {
        /* A blob whose token is not its engine's: the listener rejects the connect. */
        size_t at = verbs_listener_at(blob, len);

        PT_CHECK("the blob carries the verbs listener's address", at != 0,
                 "GSHMEM_KV_VERBS's sockaddr_in in the blob");
        if (at) {
            memcpy(bad, blob, len);
            bad[at + 28 + 4] ^= 0x01;
            EXPECT_ERR(gshmem_kv_peer_add(kv, bad, len, &p), GSHMEM_KV_ERR_PEER, "refused");
        }
    }
    PT_CHECK_EQ("peer id unchanged by the failures", -1, p);

    x.layout = id, x.layer_first = 0, x.n_layers = 1, x.n = 1, x.local_blocks = &b0;
    x.pe = GSHMEM_KV_PEER_REMOTE + 999;
    PT_CHECK_EQ("gshmem_kv_read (made-up peer)", GSHMEM_KV_ERR_RANGE,
                gshmem_kv_read(kv, &x, &req));
    x.pe = peer;
    x.signal.addr = &word, x.signal.value = 1;
    PT_CHECK_EQ("gshmem_kv_write (signal to a peer outside, not a signal word)",
                GSHMEM_KV_ERR_INVALID, gshmem_kv_write(kv, &x, &req));
    PT_CHECK("gshmem_kv_error", strstr(gshmem_kv_error(), "gshmem_kv_signal_word") != NULL,
             "the line names gshmem_kv_signal_word");
    x.signal.addr = NULL;
    x.remote_blocks = &b16;
    PT_CHECK_EQ("gshmem_kv_read (remote block 16 of 16)", GSHMEM_KV_ERR_RANGE,
                gshmem_kv_read(kv, &x, &req));
    x.remote_blocks = NULL;
    /* A layout registered after the blob was made is not in it. */
    kt_pool_init(&other, 1, 1, 4, 64, 0, 0);
    PT_CHECK_EQ("gshmem_kv_layout_register", 0,
                gshmem_kv_layout_register(kv, &other.layout, &id2));
    x.layout = id2;
    PT_CHECK_EQ("gshmem_kv_read (layout not in the blob)", GSHMEM_KV_ERR_NOT_FOUND,
                gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_layout_deregister", 0, gshmem_kv_layout_deregister(kv, id2));
    kt_pool_fini(&other);
    x.layout = id;
    /* A removed peer: refused, and the id is not a peer any more. */
    PT_CHECK_EQ("gshmem_kv_peer_remove", 0, gshmem_kv_peer_remove(kv, peer));
    PT_CHECK_EQ("gshmem_kv_read (removed peer)", GSHMEM_KV_ERR_PEER,
                gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_msg_send (removed peer)", GSHMEM_KV_ERR_PEER,
                gshmem_kv_msg_send(kv, peer, "x", 1));
    PT_CHECK_EQ("gshmem_kv_msg_send (made-up peer)", GSHMEM_KV_ERR_RANGE,
                gshmem_kv_msg_send(kv, GSHMEM_KV_PEER_REMOTE + 999, "x", 1));
    PT_CHECK_EQ("gshmem_kv_peer_remove (twice)", GSHMEM_KV_ERR_PEER,
                gshmem_kv_peer_remove(kv, peer));
    PT_CHECK_EQ("gshmem_kv_peer_remove (made-up)", GSHMEM_KV_ERR_RANGE,
                gshmem_kv_peer_remove(kv, GSHMEM_KV_PEER_REMOTE + 999));
    free(bad);
}

/* A peer by gshmem_kv_connect to the address the server published, after
 * the refusals: a wrong secret, a port where nothing listens. */
static int connect_peer(gshmem_kv_t *kv, const char *dir)
{
    unsigned char *addr;
    size_t len;
    int peer = -1, bad = -1;
    uint64_t t0;
    struct timespec a, b;

    if (await(path_of(dir, "addr", pt_me)) != 0)
        PT_CHECK("kv_peers pull-connect", 0, "the server's address");
    addr = slurp(path_of(dir, "addr", pt_me), &len);
    PT_CHECK_EQ("gshmem_kv_connect (wrong secret)", GSHMEM_KV_ERR_AUTH,
                gshmem_kv_connect(kv, (char *)addr, "not the secret, but long enough", 0,
                                  &bad));
    PT_CHECK("gshmem_kv_error", strstr(gshmem_kv_error(), "not the same secret") != NULL,
             "the line says why");
    PT_CHECK_EQ("gshmem_kv_connect (nothing listens)", GSHMEM_KV_ERR_PEER,
                gshmem_kv_connect(kv, "127.0.0.1:1", secret(), 2000, &bad));
    PT_CHECK_EQ("gshmem_kv_connect (no port)", GSHMEM_KV_ERR_INVALID,
                gshmem_kv_connect(kv, "127.0.0.1", secret(), 0, &bad));
    PT_CHECK_EQ("peer id unchanged by the failures", -1, bad);
    clock_gettime(CLOCK_MONOTONIC, &a);
    PT_CHECK_EQ("gshmem_kv_connect", 0,
                gshmem_kv_connect(kv, (char *)addr, secret(), 0, &peer));
    clock_gettime(CLOCK_MONOTONIC, &b);
    t0 = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000u + (uint64_t)(b.tv_nsec - a.tv_nsec) / 1000u;
    printf("kv_peers: PE %d: gshmem_kv_connect took %llu us\n", pt_me, (unsigned long long)t0);
    free(addr);
    return peer;
}

static void pull(gshmem_kv_t *kv, kt_pool_t *pool, int id, const char *dir, int with_bad,
                 int by_connect)
{
    static const int64_t s_local[] = {0, 1, 2, 5, 7}, s_remote[] = {3, 4, 5, 9, 1};
    static const int64_t c_local[] = {8, 9, 10, 11}, c_remote[] = {4, 5, 6, 7};
    unsigned char *exp = (unsigned char *)malloc(pool->size), *blob;
    kt_pool_t server = *pool;
    gshmem_kv_req_stats_t st;
    gshmem_kv_req_t req = 0;
    gshmem_kv_xfer_t x = {0};
    size_t len;
    int peer = -1;

    kt_fill(pool, pt_me + 100, PULL_TAG);
    for (size_t o = 0; o < pool->size; o++)
        exp[o] = kt_pat(pt_me + 100, PULL_TAG, o);
    if (await(path_of(dir, "info", pt_me)) != 0)
        PT_CHECK("kv_peers pull", 0, "the server's blob");
    blob = slurp(path_of(dir, "info", pt_me), &len);
    if (by_connect)
        peer = connect_peer(kv, dir);
    else
        PT_CHECK_EQ("gshmem_kv_peer_add", 0, gshmem_kv_peer_add(kv, blob, len, &peer));
    PT_CHECK("gshmem_kv_peer_add", peer >= GSHMEM_KV_PEER_REMOTE,
             "an id >= GSHMEM_KV_PEER_REMOTE");

    /* A slice of scattered blocks of two layers: one get per block. */
    x.layout = id, x.pe = peer, x.layer_first = 1, x.n_layers = 2, x.offset = 16,
    x.length = 200;
    x.n = 5, x.local_blocks = s_local, x.remote_blocks = s_remote;
    PT_CHECK_EQ("gshmem_kv_read (slices)", 0, gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_wait", 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ("gshmem_kv_req_stats", 0, gshmem_kv_req_stats(kv, req, &st));
    PT_CHECK_EQ("gshmem_kv_req_stats: ops (one per block slice)", (uint64_t)(5 * 2 * RPL),
                st.ops);
    PT_CHECK_EQ("gshmem_kv_req_stats: bytes", (uint64_t)(5 * 2 * RPL * 200), st.bytes);
    PT_CHECK_EQ("gshmem_kv_req_free", 0, gshmem_kv_req_free(kv, req));
    kt_apply(pool, exp, &server, pt_me, SERVE_TAG, &x, s_local, s_remote);
    /* Whole blocks adjacent on both sides: one get per layer and region. */
    memset(&x, 0, sizeof x);
    x.layout = id, x.pe = peer, x.layer_first = 0, x.n_layers = LAYERS;
    x.n = 4, x.local_blocks = c_local, x.remote_blocks = c_remote;
    x.signal.addr = gshmem_kv_signal_word(kv, 1);
    x.signal.value = SIG_SET, x.signal.op = GSHMEM_KV_SIGNAL_SET;
    PT_CHECK_EQ("gshmem_kv_read (runs, a signal)", 0, gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_wait", 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ("gshmem_kv_req_stats", 0, gshmem_kv_req_stats(kv, req, &st));
    PT_CHECK_EQ("gshmem_kv_req_stats: ops (a run per layer and region)",
                (uint64_t)(LAYERS * RPL), st.ops);
    PT_CHECK_EQ("gshmem_kv_req_free", 0, gshmem_kv_req_free(kv, req));
    kt_apply(pool, exp, &server, pt_me, SERVE_TAG, &x, c_local, c_remote);
    kt_check_pool("gshmem_kv_read from the other job", pool, exp);

    /* Push back: the server checks these. */
    x = write_xfer(id, peer);
    x.signal.addr = gshmem_kv_signal_word(kv, 0);
    x.signal.value = SIG_ADD, x.signal.op = GSHMEM_KV_SIGNAL_ADD;
    PT_CHECK_EQ("gshmem_kv_write (a signal)", 0, gshmem_kv_write(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_wait", 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ("gshmem_kv_req_free", 0, gshmem_kv_req_free(kv, req));
    {
        unsigned char big[LONG_MSG + 1];
        char text[64];

        text_of(text, sizeof text, pt_me);
        for (size_t i = 0; i < sizeof big; i++)
            big[i] = long_pat(pt_me, i);
        PT_CHECK_EQ("gshmem_kv_msg_send", 0, gshmem_kv_msg_send(kv, peer, text, strlen(text)));
        PT_CHECK_EQ("gshmem_kv_msg_send (too long)", GSHMEM_KV_ERR_RANGE,
                    gshmem_kv_msg_send(kv, peer, big, LONG_MSG + 1));
        PT_CHECK_EQ("gshmem_kv_msg_send (the longest)", 0,
                    gshmem_kv_msg_send(kv, peer, big, LONG_MSG));
    }

    if (with_bad)
        bad_inputs(kv, id, peer, blob, len);
    shmem_barrier_all(); /* both PEs' collective layout calls are done */
    publish(path_of(dir, "done", pt_me), "done", 4);
    free(exp), free(blob);
}

/* The server of round 1 dies once this PE has read from it: its requests
 * end with GSHMEM_KV_ERR_PEER within DEAD_S seconds, transfers to it are
 * refused, and the server of round 2 (another job, started after)
 * serves the rest as in pull. */
#define DEAD_S 10
static void pull_restart(gshmem_kv_t *kv, kt_pool_t *pool, int id, const char *dir)
{
    int64_t all[BLOCKS];
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_t req = 0;
    unsigned char *blob;
    uint64_t t0;
    size_t len;
    int peer = -1, rc = 0;

    for (int i = 0; i < BLOCKS; i++)
        all[i] = i;
    round_ = "1";
    if (await(path_of(dir, "info", pt_me)) != 0)
        PT_CHECK("kv_peers pull-restart", 0, "the first server's blob");
    blob = slurp(path_of(dir, "info", pt_me), &len);
    PT_CHECK_EQ("gshmem_kv_peer_add", 0, gshmem_kv_peer_add(kv, blob, len, &peer));
    x.layout = id, x.pe = peer, x.layer_first = 0, x.n_layers = LAYERS, x.n = BLOCKS;
    x.local_blocks = all;
    PT_CHECK_EQ("gshmem_kv_read", 0, gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_wait", 0, gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT));
    PT_CHECK_EQ("gshmem_kv_req_free", 0, gshmem_kv_req_free(kv, req));
    publish(path_of(dir, "ready", pt_me), "ready", 5);
    t0 = kt_now_s();
    while (rc != GSHMEM_KV_ERR_PEER && kt_now_s() - t0 < 3 * DEAD_S) {
        rc = gshmem_kv_read(kv, &x, &req);
        if (rc != 0)
            break;
        rc = gshmem_kv_wait(kv, req, 1000000000);
        if (rc == GSHMEM_KV_ERR_TIMEOUT) {
            gshmem_kv_cancel(kv, req); /* ends with the peer's failure */
            rc = gshmem_kv_wait(kv, req, (int64_t)DEAD_S * 1000000000);
        }
        gshmem_kv_req_free(kv, req);
    }
    PT_CHECK_EQ("a transfer with the dead server (GSHMEM_KV_ERR_PEER)", GSHMEM_KV_ERR_PEER, rc);
    PT_CHECK_EQ_F("kv_peers pull-restart", 1, kt_now_s() - t0 <= DEAD_S,
                  "the failure seen within %d s (took %llu s)", DEAD_S,
                  (unsigned long long)(kt_now_s() - t0));
    PT_CHECK_EQ("gshmem_kv_read (dead server)", GSHMEM_KV_ERR_PEER,
                gshmem_kv_read(kv, &x, &req));
    PT_CHECK_EQ("gshmem_kv_peer_remove (dead server)", 0, gshmem_kv_peer_remove(kv, peer));
    free(blob);
    round_ = "2";
    pull(kv, pool, id, dir, 0, 0);
}

/* GSHMEM_KV_VERBS that is no address, or one on no RDMA device here (TEST-NET-1),
 * refuses the engine's first call that needs the network with a line
 * naming the variable; the caller's value (the rig's) is put back. */
static void bad_verbs_env(void)
{
    const char *keep = getenv("GSHMEM_KV_VERBS");
    char *saved = keep ? strdup(keep) : NULL;
    gshmem_kv_t *kv = NULL;
    size_t len = 0;

    PT_CHECK_EQ("gshmem_kv_create", 0, gshmem_kv_create(NULL, &kv));
    setenv("GSHMEM_KV_VERBS", "not-an-address", 1);
    EXPECT_ERR(gshmem_kv_local_info(kv, NULL, 0, &len), GSHMEM_KV_ERR_INVALID,
               "GSHMEM_KV_VERBS=not-an-address is not a numeric");
    setenv("GSHMEM_KV_VERBS", "192.0.2.1", 1);
    EXPECT_ERR(gshmem_kv_local_info(kv, NULL, 0, &len), GSHMEM_KV_ERR_UNSUPPORTED,
               "GSHMEM_KV_VERBS=192.0.2.1: ");
    unsetenv("GSHMEM_KV_VERBS");
    PT_CHECK_EQ("gshmem_kv_local_info (GSHMEM_KV_VERBS unset)", 0,
                gshmem_kv_local_info(kv, NULL, 0, &len));
    PT_CHECK_EQ("gshmem_kv_destroy", 0, gshmem_kv_destroy(kv));
    if (saved)
        setenv("GSHMEM_KV_VERBS", saved, 1);
    free(saved);
}

int main(int argc, char **argv)
{
    gshmem_kv_t *kv = NULL;
    kt_pool_t pool;
    const char *mode = argc > 1 ? argv[1] : "";
    int id = -1;

    PT_START();
    if (argc < 3 || argc > 4 ||
        (strcmp(mode, "serve") && strcmp(mode, "serve-die") && strcmp(mode, "serve-listen") &&
         strcmp(mode, "pull") && strcmp(mode, "pull-restart") &&
         strcmp(mode, "pull-connect"))) {
        fprintf(stderr, "usage: kv_peers serve|serve-die|serve-listen|pull|pull-restart|"
                        "pull-connect DIR [ROUND]\n");
        return 2;
    }
    round_ = argc == 4 ? argv[3] : "";
    if (strcmp(mode, "pull") == 0)
        bad_verbs_env();
    PT_CHECK_EQ("gshmem_kv_create", 0, gshmem_kv_create(NULL, &kv));
    kt_pool_init(&pool, LAYERS, RPL, BLOCKS, BYTES, 0, 0); /* private memory */
    if (strncmp(mode, "serve", 5) == 0) {
        serve(kv, &pool, argv[2], strcmp(mode, "serve-die") == 0,
              strcmp(mode, "serve-listen") == 0);
    } else {
        PT_CHECK_EQ("gshmem_kv_layout_register", 0,
                    gshmem_kv_layout_register(kv, &pool.layout, &id));
        if (strcmp(mode, "pull") == 0)
            pull(kv, &pool, id, argv[2], 1, 0);
        else if (strcmp(mode, "pull-connect") == 0)
            pull(kv, &pool, id, argv[2], 0, 1);
        else
            pull_restart(kv, &pool, id, argv[2]);
    }
    PT_CHECK_EQ("gshmem_kv_destroy", 0, gshmem_kv_destroy(kv));
    kt_pool_fini(&pool);
    return pt_finish();
}
