/*
 * tests/moe/moe_route_vote.c - one PE's dispatch refuses its routing (an
 * expert past num_experts) while its peers dispatch good ones, and one PE's
 * combine refuses a changed handle while its peers combine (issue 29, the
 * first row).  Before, the refusing PE printed its line and returned while
 * its peers waited for its tokens until GSHMEM_WAIT_TIMEOUT (600 s); a
 * program that went on from the error code hung the job.  Now every PE
 * votes before anything is sent: every PE's call returns
 * GSHMEM_MOE_ERR_INVALID, the refusing PE with its own reason and the
 * others naming it, and the buffer is as it was: the same calls with good
 * arguments then dispatch and combine every token (the expert is the
 * identity, one expert of weight 1 per token, so out == x).
 */
#include "moe_ident.h"

static int has(const char *what)
{
    return strstr(gshmem_moe_error(), what) != NULL;
}

/* PT_CHECK of the last line, which it prints when the check fails. */
#define CHECK_LINE(cond, text)                                                                 \
    do {                                                                                       \
        int ok_ = (cond);                                                                      \
        if (!ok_)                                                                              \
            fprintf(stderr, "moe_route_vote: PE %d: the line: %s\n", pt_me,                    \
                    gshmem_moe_error());                                                       \
        PT_CHECK("gshmem_moe_error", ok_, text);                                               \
    } while (0)

int main(void)
{
    moe_ident_t m;
    gshmem_moe_t *b = NULL;
    gshmem_moe_handle_t h, bad;
    int last, rc;
    char want[128];

    PT_START();
    moe_ident_init(&m, "moe_route_vote");
    last = pt_me == pt_npes - 1;
    PT_CHECK_EQ("gshmem_moe_create", 0, gshmem_moe_create(&m.cfg, &b));
    if (!b) {
        fprintf(stderr, "moe_route_vote: PE %d: setup failed\n", pt_me);
        shmem_global_exit(1);
    }
    snprintf(want, sizeof want, "PE %d refused its arguments", pt_npes - 1);

    /* The last PE's routing names expert E: refused there, voided on all. */
    if (last)
        m.idx[1] = m.E;
    rc = moe_ident_dispatch(&m, b, &h);
    PT_CHECK_EQ("gshmem_moe_dispatch (one PE's routing bad)", GSHMEM_MOE_ERR_INVALID, rc);
    if (last)
        CHECK_LINE(has("topk_idx[1][0] = ") && has(" is not -1 or an expert"),
                   "the refusing PE says why");
    else
        CHECK_LINE(has(want) && has("so no PE dispatched"), "the others name it");
    if (last)
        m.idx[1] = (pt_me * MOE_IDENT_N + 1) % m.E;

    /* The buffer is as it was: a good dispatch, then a combine that the
     * last PE refuses (its handle's count changed). */
    PT_CHECK_EQ("gshmem_moe_dispatch", 0, moe_ident_dispatch(&m, b, &h));
    bad = h;
    if (last)
        bad.num_tokens = MOE_IDENT_N - 1;
    rc = gshmem_moe_combine(b, m.recv, m.w, &bad, m.out);
    PT_CHECK_EQ("gshmem_moe_combine (one PE's handle changed)", GSHMEM_MOE_ERR_INVALID, rc);
    if (!last)
        CHECK_LINE(has(want) && has("so no PE combined"), "the others name it");

    /* The dispatch is still live on every PE: the right handle combines. */
    moe_ident_combine_check(&m, b, &h);
    gshmem_moe_destroy(b);
    moe_ident_fini(&m);
    return pt_finish();
}
