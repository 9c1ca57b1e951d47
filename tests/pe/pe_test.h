/*
 * tests/pe/pe_test.h - checks and the verdict of a multi-PE test program.
 *
 * A program calls PT_START() (or shmem_init itself, then pt_setup()),
 * checks with the PT_CHECK* macros and ends with `return pt_finish();`.
 * A failed check prints one line to stderr,
 *
 *   FAIL PE 1: shmem_long_put: dest[3] from PE 2 (rma.c:120): expected 42, got 0
 *
 * and counts the failure.  pt_finish() sums the counts of all PEs on PE 0,
 * prints the verdict there, finalizes and returns the same status on every
 * PE: 0 pass, 1 fail (pt_verdict() does the same without the finalize).
 * pt_skip() ends the program with 77 (skip) instead.
 */
#ifndef PE_TEST_H
#define PE_TEST_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The spec version of the shmem.h in use, e.g. 106.  gshmem is 1.6, so every
 * guarded part is always built against it; the guards let a part of these
 * tests run against an older implementation (Open MPI's OSHMEM is 1.4). */
#define PT_SPEC (SHMEM_MAJOR_VERSION * 100 + SHMEM_MINOR_VERSION)

#define PT_UNUSED __attribute__((unused))

static int pt_me = -1;
static int pt_npes;
static int pt_fails;  /* failed checks on this PE */
static int *pt_total; /* symmetric (heap): the sum of pt_fails, on PE 0 */
static const char *pt_prog = "?";

/* Print at most this many failure lines per PE; the count stays exact. */
#define PT_MAX_LINES 20

PT_UNUSED static void pt_report(const char *routine, const char *what, const char *file,
                                int line, const char *exp, const char *act)
{
    const char *base = strrchr(file, '/');

    pt_fails++;
    if (pt_fails > PT_MAX_LINES)
        return;
    fprintf(stderr, "FAIL PE %d: %s: %s (%s:%d): expected %s, got %s\n", pt_me, routine, what,
            base ? base + 1 : file, line, exp, act);
    if (pt_fails == PT_MAX_LINES)
        fprintf(stderr, "FAIL PE %d: further failures on this PE are counted, not printed\n",
                pt_me);
}

PT_UNUSED static void pt_report_num(const char *routine, const char *what, const char *file,
                                    int line, long double exp, long double act)
{
    char e[64], a[64];

    snprintf(e, sizeof e, "%.21Lg", exp);
    snprintf(a, sizeof a, "%.21Lg", act);
    pt_report(routine, what, file, line, e, a);
}

/* PT_CHECK_EQ_F(routine, expected, actual, printf format, ...): the format
 * names the element checked ("dest[3] from PE 1"); it is formatted only when
 * the check fails.  The comparison is done in the type of `actual` (the
 * expected value is converted to it), so unsigned wrap-around and float
 * rounding behave as in the program; both are printed through long double,
 * which holds every 64-bit integer exactly. */
#define PT_CHECK_EQ_F(routine, exp, act, ...)                                                  \
    do {                                                                                       \
        __typeof__(act) pt_a_ = (act);                                                         \
        __typeof__(act) pt_e_ = (__typeof__(act))(exp);                                        \
        if (pt_a_ != pt_e_) {                                                                  \
            char pt_w_[200];                                                                   \
            snprintf(pt_w_, sizeof pt_w_, __VA_ARGS__);                                        \
            pt_report_num((routine), pt_w_, __FILE__, __LINE__, (long double)pt_e_,            \
                          (long double)pt_a_);                                                 \
        }                                                                                      \
    } while (0)

#define PT_CHECK_EQ(routine, exp, act) PT_CHECK_EQ_F(routine, exp, act, "%s", #act)

/* A condition that is not a comparison of two numbers. */
#define PT_CHECK(routine, cond, expected_text)                                                 \
    do {                                                                                       \
        if (!(cond))                                                                           \
            pt_report((routine), #cond, __FILE__, __LINE__, (expected_text), "false");         \
    } while (0)

#define PT_CHECK_PTR(routine, exp, act)                                                        \
    do {                                                                                       \
        const void *pt_pa_ = (act), *pt_pe_ = (exp);                                           \
        if (pt_pa_ != pt_pe_) {                                                                \
            char pt_e_[32], pt_a_[32];                                                         \
            snprintf(pt_e_, sizeof pt_e_, "%p", pt_pe_);                                       \
            snprintf(pt_a_, sizeof pt_a_, "%p", pt_pa_);                                       \
            pt_report((routine), #act, __FILE__, __LINE__, pt_e_, pt_a_);                      \
        }                                                                                      \
    } while (0)

PT_UNUSED static void pt_setup_(const char *file)
{
    const char *base = strrchr(file, '/');

    pt_prog = base ? base + 1 : file;
    pt_me = shmem_my_pe();
    pt_npes = shmem_n_pes();
    pt_total = (int *)shmem_calloc(1, sizeof(int));
    if (pt_total == NULL) {
        fprintf(stderr,
                "FAIL PE %d: shmem_calloc: the verdict counter: "
                "expected a pointer, got NULL\n",
                pt_me);
        shmem_global_exit(1);
    }
}

#define pt_setup() pt_setup_(__FILE__)
#define PT_START() (shmem_init(), pt_setup_(__FILE__))

/* Sum the failures of all PEs and print the verdict on PE 0; every PE
 * returns the same status, 0 or 1.  A PE that saw failures itself returns 1
 * even if the sum was lost on the way.  Frees the counter; no finalize. */
PT_UNUSED static int pt_verdict(void)
{
    int total;

    shmem_barrier_all();
    if (pt_fails)
        shmem_int_atomic_add(pt_total, pt_fails, 0);
    shmem_barrier_all();
    total = shmem_int_g(pt_total, 0);
    shmem_barrier_all(); /* nobody frees the counter while PE 0's is read */
    if (pt_me == 0) {
        if (total)
            printf("%s: FAIL: %d failed check%s over %d PE%s\n", pt_prog, total,
                   total == 1 ? "" : "s", pt_npes, pt_npes == 1 ? "" : "s");
        else
            printf("%s: PASS on %d PE%s\n", pt_prog, pt_npes, pt_npes == 1 ? "" : "s");
        fflush(stdout);
    }
    shmem_free(pt_total);
    return (total || pt_fails) ? 1 : 0;
}

/* The verdict, then shmem_finalize: `return pt_finish();` ends main. */
PT_UNUSED static int pt_finish(void)
{
    int status = pt_verdict();

    shmem_finalize();
    return status;
}

/* Collective: every PE calls it with the same reason.  PE 0 prints
 * "PROG: SKIP: REASON", the line scripts/test.sh shows beside the skip
 * (flushed at once, so it survives a finalize that hangs or crashes). */
PT_UNUSED static int pt_skip(const char *reason)
{
    if (pt_me == 0) {
        printf("%s: SKIP: %s\n", pt_prog, reason);
        fflush(stdout);
    }
    shmem_barrier_all();
    shmem_free(pt_total);
    shmem_finalize();
    return 77;
}

/* A context for a test's shmem_ctx_ forms; SHMEM_CTX_DEFAULT (and a failed
 * check) when none can be made, so the checks on it still run. */
PT_UNUSED static shmem_ctx_t pt_ctx_create(void)
{
    shmem_ctx_t ctx;
    int rc = shmem_ctx_create(0, &ctx);

    PT_CHECK_EQ("shmem_ctx_create", 0, rc);
    return rc == 0 ? ctx : SHMEM_CTX_DEFAULT;
}

#endif /* PE_TEST_H */
