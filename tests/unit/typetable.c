/* Unit tests of the type table: the row counts of the OpenSHMEM 1.6 tables,
 * and the generic lists are the distinct C types among them. */
#include <criterion/criterion.h>
#include <gshmem/typetable.h>
#include <string.h>

#define COUNT(T, N) +1
#define SIZE_OK(T, N)                                                                          \
    cr_expect(sizeof(T) >= 1 && sizeof(T) <= 32, #N " has size %zu", sizeof(T));

Test(typetable, row_counts_match_the_specification)
{
    cr_expect_eq(0 GSHMEM_RMA_TYPES(COUNT), 24);
    cr_expect_eq(0 GSHMEM_AMO_STD_TYPES(COUNT), 12);
    cr_expect_eq(0 GSHMEM_AMO_EXT_TYPES(COUNT), 14);
    cr_expect_eq(0 GSHMEM_AMO_BIT_TYPES(COUNT), 7);
    cr_expect_eq(0 GSHMEM_P2P_TYPES(COUNT), 14);
    cr_expect_eq(0 GSHMEM_REDUCE_BIT_TYPES(COUNT), 14);
    cr_expect_eq(0 GSHMEM_REDUCE_MINMAX_TYPES(COUNT), 24);
    cr_expect_eq(0 GSHMEM_REDUCE_ARITH_TYPES(COUNT), 26);
    cr_expect_eq(0 GSHMEM_SIZES(COUNT), 5);
    cr_expect_eq(0 GSHMEM_AMO_DEPR_EXT_TYPES(COUNT), 5);
    cr_expect_eq(0 GSHMEM_AMO_DEPR_STD_TYPES(COUNT), 3);
}

Test(typetable, sizes_are_sane)
{
    GSHMEM_RMA_TYPES(SIZE_OK)
    GSHMEM_REDUCE_ARITH_TYPES(SIZE_OK)
}

#define SIZED(BITS, BYTES) cr_expect_eq((BITS) / 8, (BYTES), "put%d is %d bytes", BITS, BYTES);
Test(typetable, sized_rows_agree)
{
    GSHMEM_SIZES(SIZED)
}

/* Every generic row is a row of its full list (same TYPENAME). */
#define NAME(T, N) #N,
static int contains(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

Test(typetable, generic_lists_are_subsets)
{
    const char *rma[] = { GSHMEM_RMA_TYPES(NAME) };
    const char *rma_g[] = { GSHMEM_RMA_GENERIC_TYPES(NAME) };
    const char *amo[] = { GSHMEM_AMO_EXT_TYPES(NAME) };
    const char *amo_g[] = { GSHMEM_AMO_EXT_GENERIC_TYPES(NAME) };

    for (size_t i = 0; i < sizeof(rma_g) / sizeof(rma_g[0]); i++)
        cr_expect(contains(rma, sizeof(rma) / sizeof(rma[0]), rma_g[i]), "%s", rma_g[i]);
    for (size_t i = 0; i < sizeof(amo_g) / sizeof(amo_g[0]); i++)
        cr_expect(contains(amo, sizeof(amo) / sizeof(amo[0]), amo_g[i]), "%s", amo_g[i]);
}
