/* host/p2psync.c - Point-To-Point Synchronization: wait_until and test in
 * their single, _all, _any, _some and _vector forms, the deprecated
 * shmem_wait forms, and shmem_signal_wait_until.  Loads are acquire, so a
 * PE that sees the flag also sees the data put before it. */
#include "api.h"

#include <stdint.h>
#include <string.h>

static _Noreturn void bad_cmp(const char *fn, int cmp) __attribute__((cold));

static void bad_cmp(const char *fn, int cmp)
{
    gsi_fatal(fn, "cmp %d is not one of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE", cmp);
}

/* A variable in a region the CPU reaches only by copies (the device heap
 * on a GPU: gshmem_malloc memory) cannot be waited on by loads: a load
 * would fault.  One line naming the routine that waits on a stream. */
static _Noreturn void gpu_ivars(const char *fn, const void *ivars) __attribute__((cold));

static void gpu_ivars(const char *fn, const void *ivars)
{
    size_t n = strlen(fn);
    const char *suffix = "_wait_until";

    /* shmem_T_wait_until and shmem_signal_wait_until have a gshmemx_..._on_stream twin. */
    if (strncmp(fn, "shmem_", 6) == 0 && n > strlen(suffix) &&
        strcmp(fn + n - strlen(suffix), suffix) == 0)
        gsi_fatal(fn,
                  "%p is GPU memory (the device heap), which the CPU cannot load: wait on a "
                  "stream with gshmemx_%s_on_stream, or in a kernel",
                  ivars, fn + 6);
    gsi_fatal(
        fn,
        "%p is GPU memory (the device heap), which the CPU cannot load: wait on a stream "
        "with gshmemx_<type>_wait_until_on_stream or gshmemx_signal_wait_until_on_stream, "
        "or in a kernel",
        ivars);
}

static inline void check_ivars(const char *fn, const void *ivars, size_t nbytes)
{
    size_t offset;
    int r;

    gsi_check_init(fn);
    if (!nbytes)
        return;
    r = gsi_region_of(ivars, nbytes, &offset);
    if (r < 0)
        gsi_fatal_addr(fn, ivars, nbytes, gsi_pe.my_pe);
    if (gsi_pe.region[r].copy)
        gpu_ivars(fn, ivars);
}

static const char satisfied[] = "a symmetric variable to satisfy the comparison";
static const char changed[] = "a symmetric variable to change";

static inline int included(const int *status, size_t i)
{
    return !status || status[i] == 0;
}

/* The _any forms must not always answer the lowest satisfied index: "if
 * an entry i ... satisfies the test condition, a series of calls ... must
 * eventually return i".  Each call scans from the element after where the
 * calling thread's previous call started, wrapping around, so a series of
 * n calls on n satisfied elements returns each of them once, and any
 * satisfied element is returned within n calls.  The counter is per thread:
 * threads share nothing, and a thread's series is not disturbed by
 * another's. */
static _Thread_local size_t any_next;

static inline size_t any_start(size_t nelems)
{
    return nelems ? any_next++ % nelems : 0;
}

#define GSI_P2P_TYPED(T, N)                                                                  \
    static inline int cmp_##N(const char *fn, T value, int cmp, T ref)                       \
    {                                                                                        \
        switch (cmp) {                                                                       \
        case SHMEM_CMP_EQ: return value == ref;                                              \
        case SHMEM_CMP_NE: return value != ref;                                              \
        case SHMEM_CMP_GT: return value > ref;                                               \
        case SHMEM_CMP_GE: return value >= ref;                                              \
        case SHMEM_CMP_LT: return value < ref;                                               \
        case SHMEM_CMP_LE: return value <= ref;                                              \
        default: bad_cmp(fn, cmp);                                                           \
        }                                                                                    \
    }                                                                                        \
    static inline int hit_##N(const char *fn, T *ivar, int cmp, T ref)                       \
    {                                                                                        \
        return cmp_##N(fn, __atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, ref);               \
    }                                                                                        \
    /* One scan: store matching indices (if `indices`), return their count. */               \
    static inline size_t scan_##N(const char *fn, T *ivars, size_t nelems,                   \
                                  const int *status, int cmp, T ref, const T *refs,          \
                                  size_t *indices)                                           \
    {                                                                                        \
        size_t found = 0;                                                                    \
        for (size_t i = 0; i < nelems; i++) {                                                \
            if (!included(status, i) || !hit_##N(fn, &ivars[i], cmp, refs ? refs[i] : ref))  \
                continue;                                                                    \
            if (indices)                                                                     \
                indices[found] = i;                                                          \
            found++;                                                                         \
        }                                                                                    \
        return found;                                                                        \
    }                                                                                        \
    /* The first match from element `start` on, wrapping around: its index + 1; */           \
    /* 0 when none. */                                                                       \
    static inline size_t scan_first_##N(const char *fn, T *ivars, size_t nelems,             \
                                        const int *status, int cmp, T ref, const T *refs,    \
                                        size_t start)                                        \
    {                                                                                        \
        for (size_t k = 0, i = start; k < nelems; k++, i = i + 1 < nelems ? i + 1 : 0)       \
            if (included(status, i) && hit_##N(fn, &ivars[i], cmp, refs ? refs[i] : ref))    \
                return i + 1;                                                                \
        return 0;                                                                            \
    }                                                                                        \
    static inline size_t eligible_##N(size_t nelems, const int *status)                      \
    {                                                                                        \
        size_t n = 0;                                                                        \
        for (size_t i = 0; i < nelems; i++)                                                  \
            n += (size_t)included(status, i);                                                \
        return n;                                                                            \
    }                                                                                        \
    /* Also the deprecated shmem_wait (cmp NE) and long shmem_wait_until. */                 \
    static void wait_until_##N(const char *fn, T *ivar, int cmp, T ref, const char *what)    \
    {                                                                                        \
        gsi_waiter_t w = GSI_WAITER_INIT;                                                    \
        check_ivars(fn, ivar, sizeof(T));                                                    \
        while (!hit_##N(fn, ivar, cmp, ref))                                                 \
            gsi_wait_step(&w, fn, what);                                                     \
    }                                                                                        \
    void pshmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                              \
    {                                                                                        \
        wait_until_##N("shmem_" #N "_wait_until", ivar, cmp, cmp_value, satisfied);          \
    }                                                                                        \
    int pshmem_##N##_test(T *ivar, int cmp, T cmp_value)                                     \
    {                                                                                        \
        const char *fn = "shmem_" #N "_test";                                                \
        check_ivars(fn, ivar, sizeof(T));                                                    \
        return hit_##N(fn, ivar, cmp, cmp_value);                                            \
    }                                                                                        \
    static void wait_all_##N(const char *fn, T *ivars, size_t nelems, const int *status,     \
                             int cmp, T ref, const T *refs)                                  \
    {                                                                                        \
        gsi_waiter_t w = GSI_WAITER_INIT;                                                    \
        size_t want = eligible_##N(nelems, status);                                          \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        while (scan_##N(fn, ivars, nelems, status, cmp, ref, refs, NULL) < want)             \
            gsi_wait_step(&w, fn,                                                            \
                          "all of the symmetric variables to satisfy the comparison");       \
    }                                                                                        \
    static size_t wait_any_##N(const char *fn, T *ivars, size_t nelems, const int *status,   \
                               int cmp, T ref, const T *refs)                                \
    {                                                                                        \
        gsi_waiter_t w = GSI_WAITER_INIT;                                                    \
        size_t hit, start;                                                                   \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        if (!eligible_##N(nelems, status))                                                   \
            return SIZE_MAX;                                                                 \
        start = any_start(nelems);                                                           \
        while (!(hit = scan_first_##N(fn, ivars, nelems, status, cmp, ref, refs, start)))    \
            gsi_wait_step(&w, fn,                                                            \
                          "any of the symmetric variables to satisfy the comparison");       \
        return hit - 1;                                                                      \
    }                                                                                        \
    static size_t wait_some_##N(const char *fn, T *ivars, size_t nelems, size_t *indices,    \
                                const int *status, int cmp, T ref, const T *refs)            \
    {                                                                                        \
        gsi_waiter_t w = GSI_WAITER_INIT;                                                    \
        size_t found;                                                                        \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        if (!eligible_##N(nelems, status))                                                   \
            return 0;                                                                        \
        while (!(found = scan_##N(fn, ivars, nelems, status, cmp, ref, refs, indices)))      \
            gsi_wait_step(&w, fn,                                                            \
                          "some of the symmetric variables to satisfy the comparison");      \
        return found;                                                                        \
    }                                                                                        \
    void pshmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,    \
                                     T cmp_value)                                            \
    {                                                                                        \
        wait_all_##N("shmem_" #N "_wait_until_all", ivars, nelems, status, cmp, cmp_value,   \
                     NULL);                                                                  \
    }                                                                                        \
    void pshmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status,      \
                                            int cmp, const T *cmp_values)                    \
    {                                                                                        \
        wait_all_##N("shmem_" #N "_wait_until_all_vector", ivars, nelems, status, cmp, 0,    \
                     cmp_values);                                                            \
    }                                                                                        \
    size_t pshmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,  \
                                       T cmp_value)                                          \
    {                                                                                        \
        return wait_any_##N("shmem_" #N "_wait_until_any", ivars, nelems, status, cmp,       \
                            cmp_value, NULL);                                                \
    }                                                                                        \
    size_t pshmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status,    \
                                              int cmp, const T *cmp_values)                  \
    {                                                                                        \
        return wait_any_##N("shmem_" #N "_wait_until_any_vector", ivars, nelems, status,     \
                            cmp, 0, cmp_values);                                             \
    }                                                                                        \
    size_t pshmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,            \
                                        const int *status, int cmp, T cmp_value)             \
    {                                                                                        \
        return wait_some_##N("shmem_" #N "_wait_until_some", ivars, nelems, indices, status, \
                             cmp, cmp_value, NULL);                                          \
    }                                                                                        \
    size_t pshmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,     \
                                               const int *status, int cmp,                   \
                                               const T *cmp_values)                          \
    {                                                                                        \
        return wait_some_##N("shmem_" #N "_wait_until_some_vector", ivars, nelems, indices,  \
                             status, cmp, 0, cmp_values);                                    \
    }                                                                                        \
    static int test_all_##N(const char *fn, T *ivars, size_t nelems, const int *status,      \
                            int cmp, T ref, const T *refs)                                   \
    {                                                                                        \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        return scan_##N(fn, ivars, nelems, status, cmp, ref, refs, NULL) ==                  \
               eligible_##N(nelems, status);                                                 \
    }                                                                                        \
    static size_t test_any_##N(const char *fn, T *ivars, size_t nelems, const int *status,   \
                               int cmp, T ref, const T *refs)                                \
    {                                                                                        \
        size_t hit;                                                                          \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        hit = scan_first_##N(fn, ivars, nelems, status, cmp, ref, refs, any_start(nelems));  \
        return hit ? hit - 1 : SIZE_MAX;                                                     \
    }                                                                                        \
    int pshmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp,           \
                              T cmp_value)                                                   \
    {                                                                                        \
        return test_all_##N("shmem_" #N "_test_all", ivars, nelems, status, cmp, cmp_value,  \
                            NULL);                                                           \
    }                                                                                        \
    int pshmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,    \
                                     const T *cmp_values)                                    \
    {                                                                                        \
        return test_all_##N("shmem_" #N "_test_all_vector", ivars, nelems, status, cmp, 0,   \
                            cmp_values);                                                     \
    }                                                                                        \
    size_t pshmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                 T cmp_value)                                                \
    {                                                                                        \
        return test_any_##N("shmem_" #N "_test_any", ivars, nelems, status, cmp, cmp_value,  \
                            NULL);                                                           \
    }                                                                                        \
    size_t pshmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                        const T *cmp_values)                                 \
    {                                                                                        \
        return test_any_##N("shmem_" #N "_test_any_vector", ivars, nelems, status, cmp, 0,   \
                            cmp_values);                                                     \
    }                                                                                        \
    size_t pshmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,                  \
                                  const int *status, int cmp, T cmp_value)                   \
    {                                                                                        \
        const char *fn = "shmem_" #N "_test_some";                                           \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        return scan_##N(fn, ivars, nelems, status, cmp, cmp_value, NULL, indices);           \
    }                                                                                        \
    size_t pshmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                         const int *status, int cmp, const T *cmp_values)    \
    {                                                                                        \
        const char *fn = "shmem_" #N "_test_some_vector";                                    \
        check_ivars(fn, ivars, nelems * sizeof(T));                                          \
        return scan_##N(fn, ivars, nelems, status, cmp, 0, cmp_values, indices);             \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_wait_until)                                                        \
    GSI_ALIAS(shmem_##N##_test)                                                              \
    GSI_ALIAS(shmem_##N##_wait_until_all)                                                    \
    GSI_ALIAS(shmem_##N##_wait_until_all_vector)                                             \
    GSI_ALIAS(shmem_##N##_wait_until_any)                                                    \
    GSI_ALIAS(shmem_##N##_wait_until_any_vector)                                             \
    GSI_ALIAS(shmem_##N##_wait_until_some)                                                   \
    GSI_ALIAS(shmem_##N##_wait_until_some_vector)                                            \
    GSI_ALIAS(shmem_##N##_test_all)                                                          \
    GSI_ALIAS(shmem_##N##_test_all_vector)                                                   \
    GSI_ALIAS(shmem_##N##_test_any)                                                          \
    GSI_ALIAS(shmem_##N##_test_any_vector)                                                   \
    GSI_ALIAS(shmem_##N##_test_some)                                                         \
    GSI_ALIAS(shmem_##N##_test_some_vector)
GSHMEM_P2P_TYPES(GSI_P2P_TYPED)

/* Deprecated: shmem_TYPENAME_wait(ivar, value) waits for *ivar != value. */
#define GSI_WAIT_DEPRECATED(T, N)                                                            \
    void pshmem_##N##_wait(T *ivar, T cmp_value)                                             \
    {                                                                                        \
        wait_until_##N("shmem_" #N "_wait", ivar, SHMEM_CMP_NE, cmp_value, changed);         \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_wait)
GSHMEM_WAIT_DEPRECATED_TYPES(GSI_WAIT_DEPRECATED)

void pshmem_wait(long *ivar, long cmp_value)
{
    wait_until_long("shmem_wait", ivar, SHMEM_CMP_NE, cmp_value, changed);
}
GSI_ALIAS(shmem_wait)

/* Deprecated long-only spelling of shmem_long_wait_until. */
void pshmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    wait_until_long("shmem_wait_until", ivar, cmp, cmp_value, satisfied);
}
GSI_ALIAS(shmem_wait_until)

uint64_t pshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    const char *fn = "shmem_signal_wait_until";
    gsi_waiter_t w = GSI_WAITER_INIT;
    uint64_t value;

    check_ivars(fn, sig_addr, sizeof(*sig_addr));
    while (
        !cmp_uint64(fn, value = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE), cmp, cmp_value))
        gsi_wait_step(&w, fn, "a signal to satisfy the comparison");
    return value;
}
GSI_ALIAS(shmem_signal_wait_until)
