/*
 * tests/kv/kv_msg.c - small messages between the PEs of a job
 * (gshmem_kv_msg_send, gshmem_kv_msg_recv) and their bad inputs:
 *
 *   all to all   every PE sends every PE (itself too) three messages of
 *                0, 5 and GSHMEM_KV_MSG_MAX bytes; each PE receives
 *                npes * 3, each sender's in the order sent, bytes checked,
 *                peer and pe the sender's, engine 0;
 *   full         PE 0 fills the last PE's mailbox (GSHMEM_KV_MSG_SLOTS
 *                messages), the next send is GSHMEM_KV_ERR_BUSY after the
 *                engine's timeout, nothing of it arrives;
 *   many to one  every other PE sends PE 0 300 messages (the ring wraps
 *                several times, senders race for slots and wait for room)
 *                while PE 0 receives; at 1 PE, PE 0 sends itself and
 *                receives in turn;
 *   bad input    a message too long, NULL data, a PE out of range, NULL n,
 *                a signal word out of range.
 * At 1, 2 and 4 PEs, and at 2 and 4 over UCX.  Exit status: 0 pass, 1 fail.
 */
#include "kv_test.h"

#include <stdio.h>

#define MANY 300

static int me, npes;
static gshmem_kv_msg_t box[GSHMEM_KV_MSG_SLOTS + 8];

static unsigned char pat(int from, int to, int k, size_t i)
{
    return (unsigned char)(from * 13 + to * 7 + k * 3 + (int)i);
}

static size_t len_of(int k)
{
    return k == 0 ? 0 : k == 1 ? 5 : GSHMEM_KV_MSG_MAX;
}

static void all_to_all(gshmem_kv_t *kv)
{
    static unsigned char buf[GSHMEM_KV_MSG_MAX];
    int next[64] = {0}, got = 0;
    size_t n;

    for (int to = 0; to < npes; to++)
        for (int k = 0; k < 3; k++) {
            for (size_t i = 0; i < len_of(k); i++)
                buf[i] = pat(me, to, k, i);
            KT_OK(gshmem_kv_msg_send(kv, to, buf, len_of(k)));
        }
    shmem_barrier_all(); /* every message is in its mailbox */
    while (got < 3 * npes) {
        KT_OK(gshmem_kv_msg_recv(kv, box, 5, &n));
        if (n == 0)
            break;
        for (size_t j = 0; j < n; j++) {
            gshmem_kv_msg_t *m = &box[j];
            int k = m->pe >= 0 && m->pe < npes ? next[m->pe]++ : -1, bad = 0;

            PT_CHECK_EQ("message: peer is the sender's PE", m->pe, m->peer);
            PT_CHECK_EQ("message: engine (a PE of the job)", (uint64_t)0, m->engine);
            PT_CHECK("message: from a PE of the job, at most 3", k >= 0 && k < 3, "0 to 2");
            if (k < 0 || k >= 3)
                continue;
            PT_CHECK_EQ("message: length (in the order sent)", len_of(k), m->len);
            for (size_t i = 0; i < m->len && i < len_of(k); i++)
                bad += m->data[i] != pat(m->pe, me, k, i);
            PT_CHECK_EQ("message: bytes that differ", 0, bad);
        }
        got += (int)n;
    }
    PT_CHECK_EQ("messages received", 3 * npes, got);
    KT_OK(gshmem_kv_msg_recv(kv, box, 5, &n));
    PT_CHECK_EQ("messages left", (size_t)0, n);
    shmem_barrier_all();
}

static void full(gshmem_kv_t *kv)
{
    int to = npes - 1;
    size_t n;

    if (me == 0) {
        for (int k = 0; k < GSHMEM_KV_MSG_SLOTS; k++)
            KT_OK(gshmem_kv_msg_send(kv, to, &k, sizeof k));
        EXPECT_ERR(gshmem_kv_msg_send(kv, to, "one more", 8), GSHMEM_KV_ERR_BUSY,
                   "mailbox is full");
    }
    shmem_barrier_all();
    if (me == to) {
        KT_OK(gshmem_kv_msg_recv(kv, box, GSHMEM_KV_MSG_SLOTS + 8, &n));
        PT_CHECK_EQ("a full mailbox's messages", (size_t)GSHMEM_KV_MSG_SLOTS, n);
        for (size_t k = 0; k < n; k++) {
            int v = -1;

            memcpy(&v, box[k].data, sizeof v);
            PT_CHECK_EQ("a full mailbox's message (in order)", (int)k, v);
        }
    }
    shmem_barrier_all();
}

static void many_to_one(gshmem_kv_t *kv)
{
    int next[64] = {0}, got = 0, want = npes == 1 ? MANY : (npes - 1) * MANY;
    size_t n;

    if (npes == 1) {
        for (int k = 0; k < MANY; k++) {
            KT_OK(gshmem_kv_msg_send(kv, 0, &k, sizeof k));
            if (k % 7 == 6) { /* take up to 16 of the 7 sent and what was left */
                KT_OK(gshmem_kv_msg_recv(kv, box, 16, &n));
                for (size_t j = 0; j < n; j++) {
                    int v = -1;

                    memcpy(&v, box[j].data, sizeof v);
                    PT_CHECK_EQ("a message to itself (in order)", next[0]++, v);
                }
                got += (int)n;
            }
        }
    } else if (me != 0) {
        for (int k = 0; k < MANY; k++)
            KT_OK(gshmem_kv_msg_send(kv, 0, &k, sizeof k));
    }
    if (me == 0) {
        while (got < want) {
            KT_OK(gshmem_kv_msg_recv(kv, box, 16, &n));
            for (size_t j = 0; j < n; j++) {
                int v = -1, from = box[j].pe;

                memcpy(&v, box[j].data, sizeof v);
                PT_CHECK("many to one: a PE of the job", from >= 0 && from < npes,
                         "0 to npes-1");
                if (from >= 0 && from < npes)
                    PT_CHECK_EQ("many to one: each sender's in order", next[from]++, v);
            }
            got += (int)n;
        }
        PT_CHECK_EQ("many to one: messages", want, got);
    }
    shmem_barrier_all();
}

static void bad_input(gshmem_kv_t *kv)
{
    static unsigned char big[GSHMEM_KV_MSG_MAX + 1];
    size_t n;

    EXPECT_ERR(gshmem_kv_msg_send(kv, 0, big, sizeof big), GSHMEM_KV_ERR_RANGE, "at most");
    EXPECT_ERR(gshmem_kv_msg_send(kv, 0, NULL, 4), GSHMEM_KV_ERR_INVALID, "data is NULL");
    EXPECT_ERR(gshmem_kv_msg_send(kv, npes, "x", 1), GSHMEM_KV_ERR_RANGE, "neither a PE");
    EXPECT_ERR(gshmem_kv_msg_send(kv, -1, "x", 1), GSHMEM_KV_ERR_RANGE, "neither a PE");
    EXPECT_ERR(gshmem_kv_msg_recv(kv, box, 1, NULL), GSHMEM_KV_ERR_INVALID, "n is NULL");
    EXPECT_ERR(gshmem_kv_msg_send(NULL, 0, "x", 1), GSHMEM_KV_ERR_HANDLE, "");
    PT_CHECK("gshmem_kv_signal_word(64)",
             gshmem_kv_signal_word(kv, GSHMEM_KV_SIGNAL_WORDS) == NULL, "NULL");
    PT_CHECK("gshmem_kv_signal_word(-1)", gshmem_kv_signal_word(kv, -1) == NULL, "NULL");
    PT_CHECK("gshmem_kv_signal_word(0)", gshmem_kv_signal_word(kv, 0) != NULL, "a word");
    PT_CHECK_EQ("a signal word starts at 0", (uint64_t)0, *gshmem_kv_signal_word(kv, 63));
    KT_OK(gshmem_kv_msg_recv(kv, box, 4, &n));
    PT_CHECK_EQ("nothing arrived from the refused sends", (size_t)0, n);
    shmem_barrier_all();
}

int main(void)
{
    gshmem_kv_config_t cfg = {.default_timeout_ms = 300};
    gshmem_kv_t *kv = NULL;

    PT_START();
    me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > 64)
        return pt_skip("at most 64 PEs");
    KT_OK(gshmem_kv_create(&cfg, &kv));
    all_to_all(kv);
    full(kv);
    bad_input(kv);
    /* Senders wait for room while PE 0 drains: the engine's default. */
    KT_OK(gshmem_kv_destroy(kv));
    cfg.default_timeout_ms = 20000;
    KT_OK(gshmem_kv_create(&cfg, &kv));
    many_to_one(kv);
    KT_OK(gshmem_kv_destroy(kv));
    return pt_finish();
}
