/*
 * tests/pe/setup.c - library setup, exit and query: shmem_init twice and
 * shmem_finalize twice (OpenSHMEM 1.6: the library stays up until the last
 * finalize), shmem_query_initialized before, between and after,
 * shmem_my_pe/n_pes and the deprecated start_pes/_my_pe/_num_pes,
 * shmem_info_get_version/name, shmem_pe_accessible, shmem_addr_accessible,
 * shmem_ptr and shmem_team_ptr (every PE is on this node: stores through
 * the pointer must show on the peer), shmem_query_thread, shmem_pcontrol.
 */
#include "pe_test.h"

#include <shmemx.h> /* SHMEMX_TEAM_NODE, where the library has it */

long global_word;           /* symmetric: data segment */
static long static_word[4]; /* symmetric: bss */

static int me, npes;

#if PT_SPEC >= 106
#define QUERY_INITIALIZED(expected, when)                                                      \
    do {                                                                                       \
        int init_ = -1;                                                                        \
        shmem_query_initialized(&init_);                                                       \
        PT_CHECK_EQ_F("shmem_query_initialized", (expected), init_, "%s", (when));             \
    } while (0)
#else
#define QUERY_INITIALIZED(expected, when) ((void)0)
#endif

/* Whether some PEs may be out of load/store reach: P2P disabled, or PEs
 * spread over several hosts (tests/netns/run.sh sets GSHMEM_TEST_MULTIHOST). */
static int p2p_disabled(void)
{
    const char *v = getenv("GSHMEM_DISABLE_P2P");
    const char *hosts = getenv("GSHMEM_TEST_MULTIHOST");

    return (v != NULL && *v != '\0' && strcmp(v, "0") != 0) || (hosts != NULL && *hosts);
}

/* Every PE numbers itself differently, 0..npes-1: each marks its number
 * on PE 0, which checks that each number was marked exactly once. */
static void test_numbering(void)
{
    int *seen = shmem_calloc((size_t)npes, sizeof(int));
    int i;

    PT_CHECK("shmem_calloc", seen != NULL, "a counter per PE");
    if (seen == NULL)
        return;
    PT_CHECK("shmem_my_pe", me >= 0 && me < npes, "0 <= shmem_my_pe() < shmem_n_pes()");
    if (me >= 0 && me < npes)
        shmem_int_atomic_inc(&seen[me], 0);
    shmem_barrier_all();
    if (me == 0)
        for (i = 0; i < npes; i++)
            PT_CHECK_EQ_F("shmem_my_pe", 1, seen[i], "PEs that returned %d", i);
    PT_CHECK_EQ("_my_pe", me, _my_pe());
    PT_CHECK_EQ("_num_pes", npes, _num_pes());
    /* start_pes after shmem_init changes nothing (its argument is ignored) */
    start_pes(npes + 3);
    PT_CHECK_EQ("start_pes", me, shmem_my_pe());
    PT_CHECK_EQ("start_pes", npes, shmem_n_pes());
    QUERY_INITIALIZED(1, "after start_pes");
    shmem_barrier_all();
    shmem_free(seen);
}

static void test_info(void)
{
    int major = -1, minor = -1;
    char name[SHMEM_MAX_NAME_LEN + 8];
    int provided = -1;

    shmem_info_get_version(&major, &minor);
    PT_CHECK_EQ("shmem_info_get_version", SHMEM_MAJOR_VERSION, major);
    PT_CHECK_EQ("shmem_info_get_version", SHMEM_MINOR_VERSION, minor);
    memset(name, 'x', sizeof name);
    shmem_info_get_name(name);
    PT_CHECK("shmem_info_get_name", memchr(name, '\0', SHMEM_MAX_NAME_LEN) != NULL,
             "a string of at most SHMEM_MAX_NAME_LEN bytes with its NUL");
    PT_CHECK("shmem_info_get_name", strcmp(name, SHMEM_VENDOR_STRING) == 0,
             "SHMEM_VENDOR_STRING");
    shmem_query_thread(&provided);
    PT_CHECK("shmem_query_thread",
             provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE,
             "a level from SHMEM_THREAD_SINGLE to SHMEM_THREAD_MULTIPLE");
#if PT_SPEC >= 105
    shmem_pcontrol(1);
#endif
}

static void test_accessible(void)
{
    long *heap = shmem_malloc(4 * sizeof(long));
    long local = 0;
    int pe;

    for (pe = 0; pe < npes; pe++) {
        PT_CHECK_EQ_F("shmem_pe_accessible", 1, shmem_pe_accessible(pe), "PE %d", pe);
        PT_CHECK_EQ_F("shmem_addr_accessible", 1, shmem_addr_accessible(heap, pe),
                      "heap block on PE %d", pe);
        PT_CHECK_EQ_F("shmem_addr_accessible", 1, shmem_addr_accessible(&heap[3], pe),
                      "inside a heap block on PE %d", pe);
        PT_CHECK_EQ_F("shmem_addr_accessible", 1, shmem_addr_accessible(&global_word, pe),
                      "a global variable on PE %d", pe);
        PT_CHECK_EQ_F("shmem_addr_accessible", 1, shmem_addr_accessible(&static_word[2], pe),
                      "a static variable on PE %d", pe);
        PT_CHECK_EQ_F("shmem_addr_accessible", 0, shmem_addr_accessible(&local, pe),
                      "a stack variable on PE %d", pe);
    }
    PT_CHECK_EQ("shmem_pe_accessible", 0, shmem_pe_accessible(npes));
    PT_CHECK_EQ("shmem_pe_accessible", 0, shmem_pe_accessible(-1));
    shmem_barrier_all();
    shmem_free(heap);
}

/* Whether world PE `pe` is in SHMEM_TEAM_SHARED (1.5); before teams, every
 * PE of a one-node job counts as shared. */
static int in_shared_team(int pe)
{
#if PT_SPEC >= 105
    return shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED) >= 0;
#else
    (void)pe;
    return !p2p_disabled();
#endif
}

/* shmem_ptr: the peer's copy of a symmetric object, or NULL where it cannot
 * be reached by loads and stores.  Every PE of SHMEM_TEAM_SHARED must be
 * reachable; on one node with the P2P path on, that is every PE. */
static void test_ptr(void)
{
    long *heap = shmem_calloc((size_t)npes, sizeof(long));
    int pe;

    PT_CHECK("shmem_calloc", heap != NULL, "a block");
    if (heap == NULL)
        return;
#if PT_SPEC >= 105
    if (!p2p_disabled())
        PT_CHECK_EQ_F("shmem_team_n_pes", npes, shmem_team_n_pes(SHMEM_TEAM_SHARED),
                      "PEs in SHMEM_TEAM_SHARED (all PEs run on this node)");
    PT_CHECK_EQ("shmem_team_n_pes", npes, shmem_team_n_pes(SHMEM_TEAM_WORLD));
    PT_CHECK_EQ("shmem_team_my_pe", me, shmem_team_my_pe(SHMEM_TEAM_WORLD));
#endif
    PT_CHECK_PTR("shmem_ptr", heap, shmem_ptr(heap, me));
    for (pe = 0; pe < npes; pe++) {
        long *p = shmem_ptr(heap, pe);
        int in_shared = in_shared_team(pe);

        if (!p2p_disabled())
            PT_CHECK_EQ_F("shmem_team_translate_pe", 1, in_shared,
                          "PE %d found in SHMEM_TEAM_SHARED", pe);
        if (in_shared)
            PT_CHECK("shmem_ptr", p != NULL, "a pointer for a PE of SHMEM_TEAM_SHARED");
#if PT_SPEC >= 106
        PT_CHECK_PTR("shmem_team_ptr", p, shmem_team_ptr(SHMEM_TEAM_WORLD, heap, pe));
        if (in_shared)
            PT_CHECK_PTR("shmem_team_ptr", p,
                         shmem_team_ptr(SHMEM_TEAM_SHARED, heap,
                                        shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe,
                                                                SHMEM_TEAM_SHARED)));
#endif
        if (p != NULL)
            p[me] = 1000 + me; /* a plain store into PE pe's block */
    }
    shmem_barrier_all();
    for (pe = 0; pe < npes; pe++) {
        if (in_shared_team(pe))
            PT_CHECK_EQ_F("shmem_ptr", 1000 + pe, heap[pe],
                          "the word PE %d stored through shmem_ptr", pe);
    }
    /* and the other way round: loads through the pointer see a put */
    shmem_long_p(&global_word, 77 + me, (me + 1) % npes);
    shmem_barrier_all();
    for (pe = 0; pe < npes; pe++) {
        long *g = shmem_ptr(&global_word, pe);

        if (g != NULL)
            PT_CHECK_EQ_F("shmem_ptr", 77 + (pe + npes - 1) % npes, *g,
                          "global_word of PE %d loaded through shmem_ptr", pe);
        else if (!p2p_disabled())
            PT_CHECK("shmem_ptr", g != NULL, "a pointer to a global variable of a node peer");
    }
    shmem_barrier_all();
    shmem_free(heap);
}

/* A second shmem_init/shmem_finalize pair inside the first: the library
 * stays initialized and usable until the outer finalize. */
static void test_nested_init(void)
{
#if PT_SPEC >= 106
    shmem_init();
    QUERY_INITIALIZED(1, "after the second shmem_init");
    PT_CHECK_EQ("shmem_init", me, shmem_my_pe());
    PT_CHECK_EQ("shmem_init", npes, shmem_n_pes());
    shmem_finalize();
    QUERY_INITIALIZED(1, "after the first of two shmem_finalize calls");
    /* still usable: a put and a barrier */
    static_word[0] = 0;
    shmem_barrier_all();
    shmem_long_p(&static_word[0], 500 + me, (me + 1) % npes);
    shmem_barrier_all();
    PT_CHECK_EQ_F("shmem_finalize", 500 + (me + npes - 1) % npes, static_word[0],
                  "a put after an inner shmem_finalize");
#endif
}

#ifdef SHMEMX_TEAM_NODE
/* SHMEMX_TEAM_NODE: the PEs of this host, whether or not their memory is
 * mapped here, so under GSHMEM_DISABLE_P2P=1 it still holds every PE of a
 * one-host job while SHMEM_TEAM_SHARED holds this PE alone. */
static void test_node_team(void)
{
    const char *hosts = getenv("GSHMEM_TEST_MULTIHOST");
    int n = shmem_team_n_pes(SHMEMX_TEAM_NODE), i, prev = -1;
    long *word = shmem_calloc(1, sizeof(long));

    if (!(hosts != NULL && *hosts))
        PT_CHECK_EQ_F("shmem_team_n_pes", npes, n, "PEs in SHMEMX_TEAM_NODE (one host)");
    PT_CHECK("shmem_team_n_pes", n >= shmem_team_n_pes(SHMEM_TEAM_SHARED) && n >= 1,
             "SHMEMX_TEAM_NODE holds SHMEM_TEAM_SHARED's PEs");
    PT_CHECK_EQ("shmem_team_translate_pe", shmem_team_my_pe(SHMEMX_TEAM_NODE),
                shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEMX_TEAM_NODE));
    for (i = 0; i < n; i++) {
        int pe = shmem_team_translate_pe(SHMEMX_TEAM_NODE, i, SHMEM_TEAM_WORLD);

        PT_CHECK_EQ_F("shmem_team_translate_pe", 1, pe > prev && pe < npes,
                      "node member %d is world PE %d (ascending, in range)", i, pe);
        prev = pe;
    }
    /* A collective over it: every member adds its world PE to member 0's word. */
    shmem_team_sync(SHMEMX_TEAM_NODE);
    shmem_long_atomic_add(word, me,
                          shmem_team_translate_pe(SHMEMX_TEAM_NODE, 0, SHMEM_TEAM_WORLD));
    shmem_barrier_all();
    if (shmem_team_my_pe(SHMEMX_TEAM_NODE) == 0) {
        long sum = 0;

        for (i = 0; i < n; i++)
            sum += shmem_team_translate_pe(SHMEMX_TEAM_NODE, i, SHMEM_TEAM_WORLD);
        PT_CHECK_EQ("shmem_long_atomic_add", sum, *word);
    }
    shmem_barrier_all();
    shmem_free(word);
}
#endif

int main(void)
{
    int status;

    QUERY_INITIALIZED(0, "before shmem_init");
    shmem_init();
    QUERY_INITIALIZED(1, "after shmem_init");
    pt_setup();
    me = pt_me;
    npes = pt_npes;

    test_nested_init();
    test_numbering();
    test_info();
    test_accessible();
    test_ptr();
#ifdef SHMEMX_TEAM_NODE
    test_node_team();
#endif

    status = pt_verdict();
    shmem_finalize();
#if PT_SPEC >= 106
    {
        int init = -1;

        shmem_query_initialized(&init);
        if (init != 0) {
            fprintf(stderr,
                    "FAIL PE %d: shmem_query_initialized: after the last "
                    "shmem_finalize (setup.c): expected 0, got %d\n",
                    me, init);
            status = 1;
        }
    }
#endif
    return status;
}
