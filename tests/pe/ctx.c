/*
 * tests/pe/ctx.c - communication contexts and sessions: shmem_ctx_create
 * with each option, shmem_team_create_ctx on SHMEM_TEAM_WORLD and
 * SHMEM_TEAM_SHARED (team-relative PE numbers), shmem_ctx_get_team,
 * shmem_ctx_destroy, many contexts at once, and
 * shmem_ctx_session_start/stop around a batch of operations.
 */
#include "pe_test.h"

#define NCTX 16
#define NE 8

static int me, npes, left, right;
static long *slots; /* [NCTX + 8][NE] */
static long *counter;

/* Puts into the right neighbour and an add into PE 0 on ctx, then checks
 * what the left neighbour put.  `tag` tells the users of the slot apart. */
static void use_ctx(shmem_ctx_t ctx, const char *what, int slot, long tag)
{
    long src[NE], got[NE];
    int i;

    for (i = 0; i < NE; i++)
        src[i] = tag * 100 + me * 10 + i;
    shmem_barrier_all();
    shmem_ctx_long_put(ctx, &slots[slot * NE], src, NE, right);
    shmem_ctx_long_atomic_add(ctx, counter, 1, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    for (i = 0; i < NE; i++)
        PT_CHECK_EQ_F(what, tag * 100 + left * 10 + i, slots[slot * NE + i],
                      "slot element %d put by PE %d", i, left);
    shmem_ctx_long_get(ctx, got, &slots[slot * NE], NE, left);
    for (i = 0; i < NE; i++)
        PT_CHECK_EQ_F(what, tag * 100 + ((left + npes - 1) % npes) * 10 + i, got[i],
                      "element %d read back from PE %d", i, left);
    shmem_barrier_all();
}

static void check_team(const char *what, shmem_ctx_t ctx, shmem_team_t expected)
{
#if PT_SPEC >= 105
    shmem_team_t team = SHMEM_TEAM_INVALID;
    int rc = shmem_ctx_get_team(ctx, &team);

    PT_CHECK_EQ_F("shmem_ctx_get_team", 0, rc, "return value for %s", what);
    PT_CHECK_PTR("shmem_ctx_get_team", (void *)expected, (void *)team);
#else
    (void)what, (void)ctx, (void)expected;
#endif
}

static void test_options(void)
{
    static const long opts[] = {0, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE,
                                SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE};
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    long v;
    int i, rc;

    for (i = 0; i < 4; i++) {
        rc = shmem_ctx_create(opts[i], &ctx);
        PT_CHECK_EQ_F("shmem_ctx_create", 0, rc, "return value for options %ld", opts[i]);
        if (rc != 0)
            continue;
        PT_CHECK("shmem_ctx_create", ctx != SHMEM_CTX_INVALID, "a valid context");
        check_team("a created context", ctx, SHMEM_TEAM_WORLD);
        use_ctx(ctx, "shmem_ctx_create", i, i + 1);
        shmem_ctx_destroy(ctx);
    }
    /* NOSTORE: only operations that do not store remotely */
    rc = shmem_ctx_create(SHMEM_CTX_NOSTORE, &ctx);
    PT_CHECK_EQ("shmem_ctx_create", 0, rc);
    if (rc == 0) {
        slots[0] = 1000 + me;
        shmem_barrier_all();
        v = shmem_ctx_long_g(ctx, &slots[0], right);
        PT_CHECK_EQ_F("shmem_ctx_create", 1000 + right, v, "g on a NOSTORE context");
        v = shmem_ctx_long_atomic_fetch(ctx, &slots[0], left);
        PT_CHECK_EQ_F("shmem_ctx_create", 1000 + left, v, "atomic fetch on a NOSTORE context");
        shmem_barrier_all();
        shmem_ctx_destroy(ctx);
    }
    check_team("SHMEM_CTX_DEFAULT", SHMEM_CTX_DEFAULT, SHMEM_TEAM_WORLD);
#if PT_SPEC >= 105
    {
        shmem_team_t team = SHMEM_TEAM_WORLD;

        rc = shmem_ctx_get_team(SHMEM_CTX_INVALID, &team);
        PT_CHECK("shmem_ctx_get_team", rc != 0, "nonzero for SHMEM_CTX_INVALID");
        PT_CHECK_PTR("shmem_ctx_get_team", (void *)SHMEM_TEAM_INVALID, (void *)team);
    }
#endif
}

/* Many contexts alive at once, used in turn, destroyed in another order,
 * then created again. */
static void test_many(void)
{
    shmem_ctx_t ctx[NCTX];
    int i, rc, made = 0;
    int ok[NCTX];

    for (i = 0; i < NCTX; i++) {
        rc = shmem_ctx_create(i % 2 ? SHMEM_CTX_PRIVATE : 0, &ctx[i]);
        ok[i] = rc == 0;
        made += ok[i];
        PT_CHECK_EQ_F("shmem_ctx_create", 0, rc, "context %d of %d alive at once", i, NCTX);
    }
    *counter = 0;
    for (i = 0; i < NCTX; i++)
        if (ok[i])
            use_ctx(ctx[i], "shmem_ctx_long_put", i, 10 + i);
    if (me == 0)
        PT_CHECK_EQ_F("shmem_ctx_long_atomic_add", (long)made * npes, *counter,
                      "adds from every context of every PE");
    shmem_barrier_all();
    for (i = 0; i < NCTX; i += 2)
        if (ok[i])
            shmem_ctx_destroy(ctx[i]);
    for (i = NCTX - 1; i > 0; i -= 2)
        if (ok[i])
            shmem_ctx_destroy(ctx[i]);
    for (i = 0; i < 4; i++) {
        rc = shmem_ctx_create(0, &ctx[i]);
        PT_CHECK_EQ_F("shmem_ctx_create", 0, rc, "context %d created after destroying all", i);
        if (rc == 0) {
            use_ctx(ctx[i], "shmem_ctx_create", i, 40 + i);
            shmem_ctx_destroy(ctx[i]);
        }
    }
}

static void test_team_ctx(void)
{
#if PT_SPEC >= 105
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    shmem_team_t teams[2] = {SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED};
    int t, rc;

    for (t = 0; t < 2; t++) {
        int tme = shmem_team_my_pe(teams[t]), tn = shmem_team_n_pes(teams[t]);
        int tright = (tme + 1) % tn, tleft = (tme + tn - 1) % tn;
        long v;

        rc = shmem_team_create_ctx(teams[t], 0, &ctx);
        PT_CHECK_EQ_F("shmem_team_create_ctx", 0, rc, "return value for team %d", t);
        if (rc != 0)
            continue;
        check_team(t ? "SHMEM_TEAM_SHARED" : "SHMEM_TEAM_WORLD", ctx, teams[t]);
        /* PE numbers on this context are team-relative */
        slots[0] = 0;
        shmem_barrier_all();
        shmem_ctx_long_p(ctx, &slots[0], 7000 + tme, tright);
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        PT_CHECK_EQ_F("shmem_team_create_ctx", 7000 + tleft, slots[0],
                      "word put by team PE %d on a context of team %d", tleft, t);
        v = shmem_ctx_long_g(ctx, &slots[0], tright);
        PT_CHECK_EQ_F("shmem_team_create_ctx", 7000 + tme, v, "g from team PE %d", tright);
        shmem_barrier_all();
        shmem_ctx_destroy(ctx);
    }
    ctx = SHMEM_CTX_DEFAULT;
    rc = shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx);
    PT_CHECK("shmem_team_create_ctx", rc != 0, "nonzero for SHMEM_TEAM_INVALID");
    PT_CHECK_PTR("shmem_team_create_ctx", (void *)SHMEM_CTX_INVALID, (void *)ctx);
#endif
}

/* A session around a batch of nbi puts and adds; sessions change no
 * semantics, so after stop + quiet everything has landed. */
static void test_sessions(void)
{
#if PT_SPEC >= 106
    shmem_ctx_session_config_t cfg = {.total_ops = 3 * NE};
    shmem_ctx_t ctx;
    long src[NE];
    int i, rc, round;

    rc = shmem_ctx_create(0, &ctx);
    PT_CHECK_EQ("shmem_ctx_create", 0, rc);
    if (rc != 0)
        return;
    for (round = 0; round < 3; round++) {
        shmem_ctx_t c = round == 2 ? SHMEM_CTX_DEFAULT : ctx;

        *counter = 0;
        for (i = 0; i < NE; i++)
            slots[i] = 0;
        shmem_barrier_all();
        if (round == 0)
            shmem_ctx_session_start(c, SHMEM_CTX_SESSION_BATCH, &cfg,
                                    SHMEM_CTX_SESSION_TOTAL_OPS);
        else /* defaults; a second start on the same context just adds options */
            shmem_ctx_session_start(c, 0, NULL, 0);
        if (round == 1)
            shmem_ctx_session_start(c, SHMEM_CTX_SESSION_BATCH, &cfg,
                                    SHMEM_CTX_SESSION_TOTAL_OPS);
        for (i = 0; i < NE; i++) {
            src[i] = 300 * (round + 1) + me * 10 + i;
            shmem_ctx_long_p(c, &slots[i], src[i], right);
            shmem_ctx_long_atomic_add(c, counter, 1, 0);
            shmem_ctx_long_atomic_add(c, counter, 1, right);
        }
        shmem_ctx_session_stop(c);
        shmem_ctx_quiet(c);
        shmem_barrier_all();
        for (i = 0; i < NE; i++)
            PT_CHECK_EQ_F("shmem_ctx_session_stop", 300 * (round + 1) + left * 10 + i, slots[i],
                          "element %d put in a session (round %d)", i, round);
        PT_CHECK_EQ_F("shmem_ctx_session_stop", (long)NE * ((me == 0 ? npes : 0) + 1), *counter,
                      "adds made in a session (round %d)", round);
        shmem_barrier_all();
    }
    shmem_ctx_destroy(ctx);
    /* SHMEM_CTX_INVALID: no action */
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, &cfg,
                            SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
#endif
}

int main(void)
{
    PT_START();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    right = (me + 1) % npes;
    slots = shmem_calloc((NCTX + 8) * NE + 1, sizeof(long));
    PT_CHECK("shmem_calloc", slots != NULL, "the slots");
    if (slots == NULL)
        return pt_finish();
    counter = slots + (NCTX + 8) * NE;

    test_options();
    test_many();
    test_team_ctx();
    test_sessions();

    shmem_free(slots);
    return pt_finish();
}
