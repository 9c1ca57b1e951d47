/* host/signal.c - Signaling Operations: put-with-signal, signal_add/set,
 * signal_fetch.  The signal update is a release atomic, so a PE that sees
 * the signal (acquire) also sees the data. */
#include "api.h"

static inline void signal_update(const char *fn, uint64_t *sig_addr, uint64_t signal,
                                 int sig_op, int pe)
{
    if (sig_op == SHMEM_SIGNAL_SET)
        gsi_store64(fn, sig_addr, signal, pe);
    else if (sig_op == SHMEM_SIGNAL_ADD)
        gsi_add64(fn, sig_addr, signal, pe);
    else
        gsi_fatal(fn, "sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", sig_op);
}

static inline void put_signal(const char *fn, void *dest, const void *source, size_t nbytes,
                              uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    gsi_check_init(fn);
    gsi_check_local(fn, "source", source, nbytes);
    if (nbytes)
        gsi_put(fn, dest, source, nbytes, pe);
    signal_update(fn, sig_addr, signal, sig_op, pe);
}

#define GSI_PUT_SIGNAL_TYPED_(SUFFIX, T, N)                                                  \
    void pshmem_ctx_##N##_put_signal##SUFFIX(shmem_ctx_t ctx, T *dest, const T *source,      \
                                             size_t nelems, uint64_t *sig_addr,              \
                                             uint64_t signal, int sig_op, int pe)            \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        put_signal("shmem_ctx_" #N "_put_signal" #SUFFIX, dest, source, nelems * sizeof(T),  \
                   sig_addr, signal, sig_op, pe);                                            \
    }                                                                                        \
    void pshmem_##N##_put_signal##SUFFIX(T *dest, const T *source, size_t nelems,            \
                                         uint64_t *sig_addr, uint64_t signal, int sig_op,    \
                                         int pe)                                             \
    {                                                                                        \
        put_signal("shmem_" #N "_put_signal" #SUFFIX, dest, source, nelems * sizeof(T),      \
                   sig_addr, signal, sig_op, pe);                                            \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_put_signal##SUFFIX)                                            \
    GSI_ALIAS(shmem_##N##_put_signal##SUFFIX)
#define GSI_PUT_SIGNAL_TYPED(T, N) GSI_PUT_SIGNAL_TYPED_(, T, N)
#define GSI_PUT_SIGNAL_NBI_TYPED(T, N) GSI_PUT_SIGNAL_TYPED_(_nbi, T, N)
GSHMEM_RMA_TYPES(GSI_PUT_SIGNAL_TYPED)
GSHMEM_RMA_TYPES(GSI_PUT_SIGNAL_NBI_TYPED)

/* shmem_[ctx_]putSIZE_signal[_nbi] and shmem_[ctx_]putmem_signal[_nbi] */
#define GSI_PUT_SIGNAL_SIZED_(NAME, SUFFIX, BYTES)                                           \
    void pshmem_ctx_put##NAME##_signal##SUFFIX(shmem_ctx_t ctx, void *dest,                  \
                                               const void *source, size_t nelems,            \
                                               uint64_t *sig_addr, uint64_t signal,          \
                                               int sig_op, int pe)                           \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        put_signal("shmem_ctx_put" #NAME "_signal" #SUFFIX, dest, source, nelems *(BYTES),   \
                   sig_addr, signal, sig_op, pe);                                            \
    }                                                                                        \
    void pshmem_put##NAME##_signal##SUFFIX(void *dest, const void *source, size_t nelems,    \
                                           uint64_t *sig_addr, uint64_t signal, int sig_op,  \
                                           int pe)                                           \
    {                                                                                        \
        put_signal("shmem_put" #NAME "_signal" #SUFFIX, dest, source, nelems *(BYTES),       \
                   sig_addr, signal, sig_op, pe);                                            \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_put##NAME##_signal##SUFFIX)                                          \
    GSI_ALIAS(shmem_put##NAME##_signal##SUFFIX)
#define GSI_PUT_SIGNAL_SIZED(BITS, BYTES) GSI_PUT_SIGNAL_SIZED_(BITS, , BYTES)
#define GSI_PUT_SIGNAL_NBI_SIZED(BITS, BYTES) GSI_PUT_SIGNAL_SIZED_(BITS, _nbi, BYTES)
GSHMEM_SIZES(GSI_PUT_SIGNAL_SIZED)
GSHMEM_SIZES(GSI_PUT_SIGNAL_NBI_SIZED)
GSI_PUT_SIGNAL_SIZED_(mem, , 1)
GSI_PUT_SIGNAL_SIZED_(mem, _nbi, 1)

static inline void signal_op(const char *fn, uint64_t *sig_addr, uint64_t signal, int sig_op,
                             int pe)
{
    gsi_check_init(fn);
    signal_update(fn, sig_addr, signal, sig_op, pe);
}

void pshmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    pe = gsi_ctx_pe(__func__ + 1, ctx, pe);
    signal_op("shmem_ctx_signal_add", sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}
GSI_ALIAS(shmem_ctx_signal_add)

void pshmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op("shmem_signal_add", sig_addr, signal, SHMEM_SIGNAL_ADD, pe);
}
GSI_ALIAS(shmem_signal_add)

void pshmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe)
{
    pe = gsi_ctx_pe(__func__ + 1, ctx, pe);
    signal_op("shmem_ctx_signal_set", sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}
GSI_ALIAS(shmem_ctx_signal_set)

void pshmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    signal_op("shmem_signal_set", sig_addr, signal, SHMEM_SIGNAL_SET, pe);
}
GSI_ALIAS(shmem_signal_set)

uint64_t pshmem_signal_fetch(const uint64_t *sig_addr)
{
    size_t offset;

    gsi_check_init("shmem_signal_fetch");
    if (gsi_region_of(sig_addr, sizeof(*sig_addr), &offset) < 0)
        gsi_fatal_addr("shmem_signal_fetch", sig_addr, sizeof(*sig_addr), gsi_pe.my_pe);
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}
GSI_ALIAS(shmem_signal_fetch)
