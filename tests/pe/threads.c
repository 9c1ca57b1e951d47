/*
 * tests/pe/threads.c - SHMEM_THREAD_MULTIPLE: shmem_init_thread and
 * shmem_query_thread, then several threads per PE issuing puts, gets,
 * atomics and waits at once, on the default context and on a private
 * context per thread.  Totals and contents are checked after the threads
 * have joined.
 */
#include "pe_test.h"
#include <pthread.h>

#define NT 4 /* threads per PE */
#define K 50 /* fetch-adds per thread per target */
#define NE 16

static int me, npes, left, right;
static long *slots;   /* [npes][NT][NE]: written by (PE, thread) */
static long *counter; /* [2]: fetch_inc target, then fetched-value sums */
static long *acc;
static long *flags; /* [NT]: set by the left neighbour's thread t */
static int thread_fails[NT];

struct arg {
    int t;
};

static void *worker(void *p)
{
    int t = ((struct arg *)p)->t;
    shmem_ctx_t ctx;
    long src[NE], got[NE];
    int k, i, r, rc;

    rc = shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx);
    if (rc != 0) {
        thread_fails[t]++;
        ctx = SHMEM_CTX_DEFAULT;
    }
    for (i = 0; i < NE; i++)
        src[i] = me * 10000 + t * 100 + i;
    for (k = 0; k < npes; k++) {
        int pe = (me + k) % npes;
        long *d = &slots[((long)me * NT + t) * NE];

        if (t % 2)
            shmem_ctx_long_put(ctx, d, src, NE, pe);
        else
            shmem_long_put_nbi(d, src, NE, pe);
    }
    for (r = 0; r < K; r++)
        for (k = 0; k < npes; k++) {
            int pe = (me + k) % npes;
            long v = t % 2 ? shmem_ctx_long_atomic_fetch_inc(ctx, counter, pe)
                           : shmem_long_atomic_fetch_inc(counter, pe);

            shmem_long_atomic_add(acc, v, pe);
        }
    /* pairwise with the same thread of the neighbours */
    shmem_long_atomic_set(&flags[t], 1, right);
    shmem_long_wait_until(&flags[t], SHMEM_CMP_EQ, 1);
    /* a get racing with the other threads' traffic: a slot nobody writes now */
    shmem_ctx_long_get(ctx, got, &slots[((long)npes * NT + t) * NE], NE, left);
    for (i = 0; i < NE; i++)
        if (got[i] != -1 - i)
            thread_fails[t]++;
    shmem_ctx_quiet(ctx);
    shmem_quiet();
    if (rc == 0)
        shmem_ctx_destroy(ctx);
    return NULL;
}

int main(void)
{
    pthread_t th[NT];
    struct arg args[NT];
    int provided = -1, queried = -1, rc, t, q, i;
    long m;

    rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    pt_setup();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    PT_CHECK_EQ("shmem_init_thread", 0, rc);
    shmem_query_thread(&queried);
    PT_CHECK_EQ("shmem_query_thread", provided, queried);
    PT_CHECK_EQ_F("shmem_init_thread", SHMEM_THREAD_MULTIPLE, provided,
                  "provided level (gshmem supports SHMEM_THREAD_MULTIPLE)");
    if (provided != SHMEM_THREAD_MULTIPLE)
        return pt_finish();

    slots = shmem_malloc(((size_t)npes + 1) * NT * NE * sizeof(long));
    counter = shmem_calloc(2 + NT, sizeof(long));
    PT_CHECK("shmem_malloc", slots != NULL && counter != NULL, "the buffers");
    if (slots == NULL || counter == NULL)
        return pt_finish();
    acc = counter + 1;
    flags = counter + 2;
    for (i = 0; i < (npes + 1) * NT * NE; i++)
        slots[i] = -1 - i % NE;
    shmem_barrier_all();

    for (t = 0; t < NT; t++) {
        args[t].t = t;
        if (pthread_create(&th[t], NULL, worker, &args[t]) != 0) {
            PT_CHECK("pthread_create", 0, "a thread");
            return pt_finish(); /* cannot go on: the others would wait */
        }
    }
    for (t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();

    for (t = 0; t < NT; t++)
        PT_CHECK_EQ_F("shmem_ctx_create", 0, thread_fails[t],
                      "failures in thread %d (context creation or a racing get)", t);
    for (q = 0; q < npes; q++)
        for (t = 0; t < NT; t++)
            for (i = 0; i < NE; i++)
                PT_CHECK_EQ_F(t % 2 ? "shmem_ctx_long_put" : "shmem_long_put_nbi",
                              q * 10000 + t * 100 + i, slots[((long)q * NT + t) * NE + i],
                              "element %d put by thread %d of PE %d", i, t, q);
    m = (long)npes * NT * K;
    PT_CHECK_EQ_F("shmem_long_atomic_fetch_inc", m, *counter,
                  "counter after %d PEs x %d threads x %d increments", npes, NT, K);
    PT_CHECK_EQ_F("shmem_long_atomic_fetch_inc", m * (m - 1) / 2, *acc,
                  "sum of the fetched values (each exactly once)");
    for (t = 0; t < NT; t++)
        PT_CHECK_EQ_F("shmem_long_wait_until", 1, flags[t], "flag of thread %d", t);
    shmem_free(counter);
    shmem_free(slots);
    return pt_finish();
}
