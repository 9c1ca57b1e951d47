/*
 * tests/moe/moe_handle_checks.c - combine refuses a handle that is not its own
 * dispatch's, before it reads anything through it: one made by another
 * buffer, and one whose token count was changed (negative, past the
 * buffer, one off).  It used to copy num_tokens rows of weights into a
 * staging array of max_tokens_per_pe rows: a large count wrote past it, a
 * negative one left the output untouched and returned 0.  After the
 * refusals the right handle still combines, and every output row is
 * checked (the expert is the identity and each token has one expert with
 * weight 1, so out == x).
 */
#include "moe_ident.h"

int main(void)
{
    moe_ident_t m;
    gshmem_moe_t *a = NULL, *b = NULL;
    gshmem_moe_handle_t h, bad;

    PT_START();
    moe_ident_init(&m, "moe_handle_checks");
    PT_CHECK_EQ("gshmem_moe_create", 0, gshmem_moe_create(&m.cfg, &a));
    PT_CHECK_EQ("gshmem_moe_create", 0, gshmem_moe_create(&m.cfg, &b));
    if (!a || !b) {
        fprintf(stderr, "moe_handle_checks: PE %d: setup failed\n", pt_me);
        shmem_global_exit(1);
    }
    PT_CHECK_EQ("gshmem_moe_dispatch", 0, moe_ident_dispatch(&m, a, &h));
    PT_CHECK_EQ("gshmem_moe_combine (another buffer's handle)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(b, m.recv, m.w, &h, m.out));
    PT_CHECK("gshmem_moe_error",
             strstr(gshmem_moe_error(), "made by another buffer's dispatch") != NULL,
             "the line names the other buffer");
    bad = h, bad.num_tokens = -1;
    PT_CHECK_EQ("gshmem_moe_combine (num_tokens -1)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(a, m.recv, m.w, &bad, m.out));
    bad = h, bad.num_tokens = 1 << 28;
    PT_CHECK_EQ("gshmem_moe_combine (num_tokens 2^28)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(a, m.recv, m.w, &bad, m.out));
    bad = h, bad.num_tokens = MOE_IDENT_N - 1;
    PT_CHECK_EQ("gshmem_moe_combine (num_tokens one short)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(a, m.recv, m.w, &bad, m.out));
    PT_CHECK("gshmem_moe_error", strstr(gshmem_moe_error(), "a changed handle") != NULL,
             "the line names the count");
    bad = h, bad.buffer = 0;
    PT_CHECK_EQ("gshmem_moe_expert_rows (tag 0)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_expert_rows(a, &bad, 0, &(const gshmem_moe_row_t *){NULL},
                                       &(int){0}));
    /* The handle itself still works: every PE combines (collective). */
    moe_ident_combine_check(&m, a, &h);
    gshmem_moe_destroy(b);
    gshmem_moe_destroy(a);
    moe_ident_fini(&m);
    return pt_finish();
}
