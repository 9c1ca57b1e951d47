/*
 * tests/moe/moe_config_checks.c - every field of gshmem_moe_config_t that
 * the PEs must agree on is compared by gshmem_moe_create: for each of
 * hidden, num_experts, topk, max_tokens_per_pe, format and mode in turn,
 * the last PE passes another value, and every PE's create must return
 * GSHMEM_MOE_ERR_INVALID with the line naming that field and both values
 * (bad_moe_config tests the hidden size and a refusal as a job's end;
 * this one all six, and that a create with agreeing configs still works
 * after them).  At 1 PE there is nothing to disagree with: every create
 * must succeed.
 */
#include "../pe/pe_test.h"

#include <gshmem_moe.h>

#include <stdio.h>
#include <string.h>

static gshmem_moe_config_t base_config(void)
{
    gshmem_moe_config_t c = {0};

    c.hidden = 128, c.num_experts = 2 * pt_npes, c.topk = 1, c.max_tokens_per_pe = 4;
    c.format = GSHMEM_MOE_BF16, c.mode = GSHMEM_MOE_LOW_LATENCY;
    return c;
}

int main(void)
{
    static const char *const field[] = {"hidden", "num_experts", "topk", "max_tokens_per_pe",
                                        "format", "mode"};
    const int nf = (int)(sizeof field / sizeof field[0]);
    gshmem_moe_t *b = NULL;

    PT_START();
    for (int f = 0; f < nf; f++) {
        gshmem_moe_config_t base = base_config(), alt = base, c;
        int last = pt_me == pt_npes - 1 && pt_npes > 1, rc;
        int *va, *vb;
        char want[128];

        /* The last PE's config: field f changed, to a value it accepts. */
        va = f == 0   ? &alt.hidden
             : f == 1 ? &alt.num_experts
             : f == 2 ? &alt.topk
             : f == 3 ? &alt.max_tokens_per_pe
                      : NULL;
        vb = f == 0   ? &base.hidden
             : f == 1 ? &base.num_experts
             : f == 2 ? &base.topk
             : f == 3 ? &base.max_tokens_per_pe
                      : NULL;
        if (f == 4)
            alt.format = GSHMEM_MOE_FP8;
        else if (f == 5)
            alt.mode = GSHMEM_MOE_NORMAL;
        else if (f == 1)
            alt.num_experts = 4 * pt_npes; /* still a multiple of the PE count */
        else
            *va *= 2;
        snprintf(want, sizeof want, "PE %d has %s %d, PE 0 %d: every PE must pass the same",
                 pt_npes - 1, field[f],
                 va       ? *va
                 : f == 4 ? (int)alt.format
                          : (int)alt.mode,
                 vb       ? *vb
                 : f == 4 ? (int)base.format
                          : (int)base.mode);
        c = last ? alt : base;
        rc = gshmem_moe_create(&c, &b);
        if (pt_npes == 1) {
            PT_CHECK_EQ_F("gshmem_moe_create", 0, rc, "field %s at 1 PE", field[f]);
            if (rc == 0)
                gshmem_moe_destroy(b);
            continue;
        }
        PT_CHECK_EQ_F("gshmem_moe_create", GSHMEM_MOE_ERR_INVALID, rc,
                      "the last PE's %s differs", field[f]);
        /* Every PE's line names the last PE, the field and both values. */
        PT_CHECK("gshmem_moe_error", strstr(gshmem_moe_error(), want) != NULL, want);
        if (rc == 0)
            gshmem_moe_destroy(b);
    }
    {
        gshmem_moe_config_t c = base_config();

        PT_CHECK_EQ("gshmem_moe_create (agreeing configs after the refusals)", 0,
                    gshmem_moe_create(&c, &b));
        if (b)
            gshmem_moe_destroy(b);
    }
    return pt_finish();
}
