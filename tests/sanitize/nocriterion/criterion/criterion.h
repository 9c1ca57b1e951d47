/*
 * tests/sanitize/nocriterion/criterion/criterion.h - a stand-in for
 * Criterion's header, for the ThreadSanitizer build of tests/unit/ring
 * (scripts/sanitize.sh puts this folder first on the include path there).
 *
 * Criterion 2.4 cannot start under TSan: its sandbox maps an arena with
 * MAP_FIXED at random addresses between 32 TiB and 127 TiB, which TSan keeps
 * for its shadow and metadata, so it gives up ("Could not initialize
 * inheritable arena").  The test's own code does not change: each Test runs
 * in turn, in this one process, with the few assertions it uses.  A failed
 * cr_assert ends the program, a failed cr_expect is counted; the exit
 * status is 1 if any check failed.
 */
#ifndef GSHMEM_NOCRITERION_H
#define GSHMEM_NOCRITERION_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct nocr_test {
    const char *suite, *name;
    void (*fn)(void);
} nocr_test_t;

static nocr_test_t nocr_tests[64];
static int nocr_n_tests, nocr_failed;

/* Test(suite, name, options...): the options (.timeout) are ignored; the
 * harness's own timeout bounds the program. */
#define Test(suite, name, ...)                                                                 \
    static void suite##_##name(void);                                                          \
    __attribute__((constructor)) static void nocr_add_##suite##_##name(void)                   \
    {                                                                                          \
        if (nocr_n_tests < 64)                                                                 \
            nocr_tests[nocr_n_tests++] = (nocr_test_t){#suite, #name, suite##_##name};         \
    }                                                                                          \
    static void suite##_##name(void)

__attribute__((format(printf, 6, 7))) static void nocr_check(int ok, int fatal,
                                                             const char *file, int line,
                                                             const char *expr, const char *fmt,
                                                             ...)
{
    va_list ap;

    if (ok)
        return;
    fprintf(stderr, "%s:%d: %s failed: %s:", file, line, fatal ? "assertion" : "expectation",
            expr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    nocr_failed++;
    if (fatal)
        exit(1);
}

/* The message is optional: " " glues onto its format string, or stands alone. */
#define nocr_cmp_(fatal, cond, ...)                                                            \
    nocr_check((cond), (fatal), __FILE__, __LINE__, #cond, " " __VA_ARGS__)
#define cr_assert_eq(a, b, ...) nocr_cmp_(1, (a) == (b), __VA_ARGS__)
#define cr_assert_gt(a, b, ...) nocr_cmp_(1, (a) > (b), __VA_ARGS__)
#define cr_expect_eq(a, b, ...) nocr_cmp_(0, (a) == (b), __VA_ARGS__)
#define cr_expect_geq(a, b, ...) nocr_cmp_(0, (a) >= (b), __VA_ARGS__)
#define cr_expect_neq(a, b, ...) nocr_cmp_(0, (a) != (b), __VA_ARGS__)
#define cr_expect_gt(a, b, ...) nocr_cmp_(0, (a) > (b), __VA_ARGS__)
#define cr_expect_lt(a, b, ...) nocr_cmp_(0, (a) < (b), __VA_ARGS__)
#define cr_expect_leq(a, b, ...) nocr_cmp_(0, (a) <= (b), __VA_ARGS__)
#define cr_assert_not_null(p, ...) nocr_cmp_(1, (p) != NULL, __VA_ARGS__)
#define cr_expect_null(p, ...) nocr_cmp_(0, (p) == NULL, __VA_ARGS__)

int main(void)
{
    for (int i = 0; i < nocr_n_tests; i++) {
        int before = nocr_failed;

        nocr_tests[i].fn();
        printf("%s: %s::%s\n", nocr_failed == before ? "ok" : "FAILED", nocr_tests[i].suite,
               nocr_tests[i].name);
    }
    printf("%d tests, %d failed checks\n", nocr_n_tests, nocr_failed);
    return nocr_failed ? 1 : 0;
}

#endif
