/* Unit tests of the deterministic symmetric-heap allocator. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "core/alloc.h"

#define MiB (1024 * 1024)

static gsi_alloc_t a;

static void setup(void)
{
    cr_assert_eq(gsi_alloc_init(&a, 1 * MiB), GSI_OK);
}

static void teardown(void)
{
    gsi_alloc_fini(&a);
}

TestSuite(alloc, .init = setup, .fini = teardown);

Test(alloc, first_allocation_is_at_offset_zero)
{
    size_t off = 99;

    cr_assert_eq(gsi_alloc_get(&a, 100, 0, &off), GSI_OK);
    cr_expect_eq(off, 0, "offset %zu, expected 0", off);
    cr_expect_eq(gsi_alloc_size(&a, 0), 128, "size %zu, expected 100 rounded to 128",
                 gsi_alloc_size(&a, 0));
}

Test(alloc, allocations_do_not_overlap_and_are_cache_line_aligned)
{
    size_t off[32];

    for (int i = 0; i < 32; i++) {
        cr_assert_eq(gsi_alloc_get(&a, (size_t)(i * 37 + 1), 0, &off[i]), GSI_OK);
        cr_expect_eq(off[i] % GSI_ALLOC_MIN_ALIGN, 0, "offset %zu not aligned", off[i]);
    }
    for (int i = 1; i < 32; i++)
        cr_expect_geq(off[i], off[i - 1] + (size_t)((i - 1) * 37 + 1), "block %d overlaps", i);
}

Test(alloc, same_calls_give_same_offsets)
{
    gsi_alloc_t b;
    size_t x, y;
    size_t sizes[] = {10, 4096, 7, 100000, 64, 3};

    cr_assert_eq(gsi_alloc_init(&b, 1 * MiB), GSI_OK);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        cr_assert_eq(gsi_alloc_get(&a, sizes[i], 0, &x), GSI_OK);
        cr_assert_eq(gsi_alloc_get(&b, sizes[i], 0, &y), GSI_OK);
        cr_expect_eq(x, y, "call %zu: %zu vs %zu", i, x, y);
        if (i % 2) {
            gsi_alloc_put(&a, x);
            gsi_alloc_put(&b, y);
        }
    }
    gsi_alloc_fini(&b);
}

Test(alloc, alignment_is_honoured)
{
    size_t off;

    cr_assert_eq(gsi_alloc_get(&a, 8, 0, &off), GSI_OK);
    cr_assert_eq(gsi_alloc_get(&a, 8, 4096, &off), GSI_OK);
    cr_expect_eq(off % 4096, 0, "offset %zu not 4096-aligned", off);
    cr_expect_eq(gsi_alloc_get(&a, 8, 48, &off), GSI_ERR_INVALID, "48 is not a power of two");
}

Test(alloc, exhaustion_fails_without_damage)
{
    size_t off, big;

    cr_assert_eq(gsi_alloc_get(&a, 512 * 1024, 0, &off), GSI_OK);
    cr_expect_eq(gsi_alloc_get(&a, 600 * 1024, 0, &big), GSI_ERR_NOMEM);
    cr_expect_eq(gsi_alloc_size(&a, off), 512 * 1024);
    cr_expect_eq(gsi_alloc_get(&a, 2 * MiB, 0, &big), GSI_ERR_NOMEM);
}

Test(alloc, free_coalesces_neighbours)
{
    size_t x, y, z, w;

    gsi_alloc_get(&a, 256 * 1024, 0, &x);
    gsi_alloc_get(&a, 256 * 1024, 0, &y);
    gsi_alloc_get(&a, 256 * 1024, 0, &z);
    gsi_alloc_put(&a, x);
    gsi_alloc_put(&a, z);
    gsi_alloc_put(&a, y);
    cr_expect_eq(a.count, 1, "%zu blocks left, expected 1", a.count);
    cr_expect_eq(gsi_alloc_get(&a, 1 * MiB, 0, &w), GSI_OK, "whole heap free again");
}

Test(alloc, double_free_and_foreign_offset_are_rejected)
{
    size_t x;

    gsi_alloc_get(&a, 64, 0, &x);
    cr_expect_eq(gsi_alloc_put(&a, x + 8), GSI_ERR_INVALID);
    cr_expect_eq(gsi_alloc_put(&a, x), GSI_OK);
    cr_expect_eq(gsi_alloc_put(&a, x), GSI_ERR_INVALID);
}

Test(alloc, resize_in_place_grows_and_shrinks)
{
    size_t x, y;

    gsi_alloc_get(&a, 1000, 0, &x);
    cr_expect_eq(gsi_alloc_resize(&a, x, 5000), GSI_OK);
    cr_expect_eq(gsi_alloc_size(&a, x), 5056);
    cr_expect_eq(gsi_alloc_resize(&a, x, 64), GSI_OK);
    cr_expect_eq(gsi_alloc_size(&a, x), 64);
    gsi_alloc_get(&a, 64, 0, &y);
    cr_expect_eq(y, 64, "freed tail reused at %zu", y);
    cr_expect_eq(gsi_alloc_resize(&a, x, 128), GSI_ERR_NOMEM, "neighbour is used");
}
