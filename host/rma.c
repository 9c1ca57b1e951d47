/* host/rma.c - Remote Memory Access: put, get, p, g and their _nbi forms.
 *
 * Each family is one generic function; the typed (shmem_TYPENAME_put),
 * sized (shmem_put64) and mem (shmem_putmem) names, with and without a
 * context, are generated from include/gshmem/typetable.h.  On the P2P path
 * an operation is complete when it returns, so _nbi forms share the blocking
 * code; the network transport keeps them apart. */
#include "api.h"

#include "gpu/device.h"

static inline void put_bytes(const char *fn, void *dest, const void *source, size_t nbytes,
                             int pe)
{
    gsi_check_init(fn);
    gsi_check_local(fn, "source", source, nbytes);
    if (nbytes)
        gsi_put(fn, dest, source, nbytes, pe);
    else
        gsi_check_pe(fn, pe);
}

static inline void get_bytes(const char *fn, void *dest, const void *source, size_t nbytes,
                             int pe)
{
    gsi_check_init(fn);
    gsi_check_local(fn, "dest", dest, nbytes);
    if (nbytes)
        gsi_get(fn, dest, source, nbytes, pe);
    else
        gsi_check_pe(fn, pe);
}

/* shmem_[ctx_]TYPENAME_{put,get}[_nbi] */
#define GSI_RMA_TYPED(OP, SUFFIX, T, N, DCONST, SCONST)                                      \
    void pshmem_ctx_##N##_##OP##SUFFIX(shmem_ctx_t ctx, DCONST T *dest, SCONST T *source,    \
                                       size_t nelems, int pe)                                \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        OP##_bytes("shmem_ctx_" #N "_" #OP #SUFFIX, dest, source, nelems * sizeof(T), pe);   \
    }                                                                                        \
    void pshmem_##N##_##OP##SUFFIX(DCONST T *dest, SCONST T *source, size_t nelems, int pe)  \
    {                                                                                        \
        OP##_bytes("shmem_" #N "_" #OP #SUFFIX, dest, source, nelems * sizeof(T), pe);       \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_##OP##SUFFIX)                                                  \
    GSI_ALIAS(shmem_##N##_##OP##SUFFIX)

#define GSI_PUT_TYPED(T, N) GSI_RMA_TYPED(put, , T, N, , const)
#define GSI_PUT_NBI_TYPED(T, N) GSI_RMA_TYPED(put, _nbi, T, N, , const)
#define GSI_GET_TYPED(T, N) GSI_RMA_TYPED(get, , T, N, , const)
#define GSI_GET_NBI_TYPED(T, N) GSI_RMA_TYPED(get, _nbi, T, N, , const)
GSHMEM_RMA_TYPES(GSI_PUT_TYPED)
GSHMEM_RMA_TYPES(GSI_PUT_NBI_TYPED)
GSHMEM_RMA_TYPES(GSI_GET_TYPED)
GSHMEM_RMA_TYPES(GSI_GET_NBI_TYPED)

/* shmem_[ctx_]{put,get}SIZE[_nbi] */
#define GSI_RMA_SIZED(OP, SUFFIX, BITS, BYTES)                                               \
    void pshmem_ctx_##OP##BITS##SUFFIX(shmem_ctx_t ctx, void *dest, const void *source,      \
                                       size_t nelems, int pe)                                \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        OP##_bytes("shmem_ctx_" #OP #BITS #SUFFIX, dest, source, nelems *(BYTES), pe);       \
    }                                                                                        \
    void pshmem_##OP##BITS##SUFFIX(void *dest, const void *source, size_t nelems, int pe)    \
    {                                                                                        \
        OP##_bytes("shmem_" #OP #BITS #SUFFIX, dest, source, nelems *(BYTES), pe);           \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##OP##BITS##SUFFIX)                                                  \
    GSI_ALIAS(shmem_##OP##BITS##SUFFIX)

#define GSI_PUT_SIZED(BITS, BYTES) GSI_RMA_SIZED(put, , BITS, BYTES)
#define GSI_PUT_NBI_SIZED(BITS, BYTES) GSI_RMA_SIZED(put, _nbi, BITS, BYTES)
#define GSI_GET_SIZED(BITS, BYTES) GSI_RMA_SIZED(get, , BITS, BYTES)
#define GSI_GET_NBI_SIZED(BITS, BYTES) GSI_RMA_SIZED(get, _nbi, BITS, BYTES)
GSHMEM_SIZES(GSI_PUT_SIZED)
GSHMEM_SIZES(GSI_PUT_NBI_SIZED)
GSHMEM_SIZES(GSI_GET_SIZED)
GSHMEM_SIZES(GSI_GET_NBI_SIZED)

/* shmem_[ctx_]{put,get}mem[_nbi] */
GSI_RMA_SIZED(put, mem, , 1)
GSI_RMA_SIZED(put, mem_nbi, , 1)
GSI_RMA_SIZED(get, mem, , 1)
GSI_RMA_SIZED(get, mem_nbi, , 1)

/* shmem_[ctx_]TYPENAME_p: one store, no memcpy call. */
#define GSI_P_TYPED(T, N)                                                                    \
    static inline void p_##N(const char *fn, T *dest, T value, int pe)                       \
    {                                                                                        \
        gsi_target_t t;                                                                      \
        T *p;                                                                                \
                                                                                             \
        gsi_check_init(fn);                                                                  \
        p = gsi_target(fn, dest, sizeof(T), pe, &t);                                         \
        if (__builtin_expect(p != NULL, 1))                                                  \
            *(volatile T *)p = value;                                                        \
        else                                                                                 \
            gsi_put(fn, dest, &value, sizeof(T), pe);                                        \
    }                                                                                        \
    void pshmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe)                       \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        p_##N("shmem_ctx_" #N "_p", dest, value, pe);                                        \
    }                                                                                        \
    void pshmem_##N##_p(T *dest, T value, int pe)                                            \
    {                                                                                        \
        p_##N("shmem_" #N "_p", dest, value, pe);                                            \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_p)                                                             \
    GSI_ALIAS(shmem_##N##_p)
GSHMEM_RMA_TYPES(GSI_P_TYPED)

/* shmem_[ctx_]TYPENAME_g */
#define GSI_G_TYPED(T, N)                                                                    \
    static inline T g_##N(const char *fn, const T *source, int pe)                           \
    {                                                                                        \
        gsi_target_t t;                                                                      \
        const T *p;                                                                          \
        T value;                                                                             \
                                                                                             \
        gsi_check_init(fn);                                                                  \
        p = gsi_target(fn, source, sizeof(T), pe, &t);                                       \
        if (__builtin_expect(p != NULL, 1))                                                  \
            return *(const volatile T *)p;                                                   \
        gsi_get(fn, &value, source, sizeof(T), pe);                                          \
        return value;                                                                        \
    }                                                                                        \
    T pshmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe)                           \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        return g_##N("shmem_ctx_" #N "_g", source, pe);                                      \
    }                                                                                        \
    T pshmem_##N##_g(const T *source, int pe)                                                \
    {                                                                                        \
        return g_##N("shmem_" #N "_g", source, pe);                                          \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_g)                                                             \
    GSI_ALIAS(shmem_##N##_g)
GSHMEM_RMA_TYPES(GSI_G_TYPED)

/* ---- gshmem_ptr on the host ------------------------------------------------ */

/* What the host pass of gshmem_ptr calls on a GPU (device/gsd/ptr.h; on
 * host lanes gshmem_ptr is the device routine itself): NVSHMEM's host
 * nvshmem_ptr.  pe's copy of ptr when ptr is in the device heap and pe's
 * heap is mapped here (a GPU address, for device code and copies: the CPU
 * cannot dereference it), else NULL, as for a PE reached through the
 * network.  shmem_ptr stays NULL there: its result is for CPU loads. */
__attribute__((visibility("default"))) void *gshmemi_ptr(const void *ptr, int pe);

void *gshmemi_ptr(const void *ptr, int pe)
{
    gsi_check_init("gshmem_ptr");
    gsi_check_pe("gshmem_ptr", pe); /* as the device routine does */
    return gsi_device_heap_peer(ptr, pe);
}
