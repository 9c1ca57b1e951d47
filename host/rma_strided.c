/* host/rma_strided.c - strided (iput/iget) and interleaved-block
 * (ibput/ibget, OpenSHMEM 1.6) transfers.  Strides count elements. */
#include "api.h"

/* nblocks blocks of bsize elements of `size` bytes; block i is at
 * dest + i*dst and source + i*sst elements.  iput is the bsize = 1 case. */
static void put_blocks(const char *fn, char *dest, const char *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size, int pe)
{
    gsi_check_init(fn);
    gsi_check_pe(fn, pe);
    gsi_check_local(fn, "source", source, nblocks * bsize * size);
    for (size_t i = 0; i < nblocks; i++)
        gsi_put(fn, dest + (ptrdiff_t)i * dst * (ptrdiff_t)size,
                source + (ptrdiff_t)i * sst * (ptrdiff_t)size, bsize * size, pe);
}

static void get_blocks(const char *fn, char *dest, const char *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size, int pe)
{
    gsi_check_init(fn);
    gsi_check_pe(fn, pe);
    gsi_check_local(fn, "dest", dest, nblocks * bsize * size);
    for (size_t i = 0; i < nblocks; i++)
        gsi_get(fn, dest + (ptrdiff_t)i * dst * (ptrdiff_t)size,
                source + (ptrdiff_t)i * sst * (ptrdiff_t)size, bsize * size, pe);
}

/* shmem_[ctx_]TYPENAME_i{put,get} */
#define GSI_STRIDED_TYPED(OP, T, N)                                                          \
    void pshmem_ctx_##N##_i##OP(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,    \
                                ptrdiff_t sst, size_t nelems, int pe)                        \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        OP##_blocks("shmem_ctx_" #N "_i" #OP, (char *)dest, (const char *)source, dst, sst,  \
                    1, nelems, sizeof(T), pe);                                               \
    }                                                                                        \
    void pshmem_##N##_i##OP(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,          \
                            size_t nelems, int pe)                                           \
    {                                                                                        \
        OP##_blocks("shmem_" #N "_i" #OP, (char *)dest, (const char *)source, dst, sst, 1,   \
                    nelems, sizeof(T), pe);                                                  \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_i##OP)                                                         \
    GSI_ALIAS(shmem_##N##_i##OP)

/* shmem_[ctx_]TYPENAME_ib{put,get} */
#define GSI_BLOCKED_TYPED(OP, T, N)                                                          \
    void pshmem_ctx_##N##_ib##OP(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,   \
                                 ptrdiff_t sst, size_t bsize, size_t nblocks, int pe)        \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        OP##_blocks("shmem_ctx_" #N "_ib" #OP, (char *)dest, (const char *)source, dst, sst, \
                    bsize, nblocks, sizeof(T), pe);                                          \
    }                                                                                        \
    void pshmem_##N##_ib##OP(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,         \
                             size_t bsize, size_t nblocks, int pe)                           \
    {                                                                                        \
        OP##_blocks("shmem_" #N "_ib" #OP, (char *)dest, (const char *)source, dst, sst,     \
                    bsize, nblocks, sizeof(T), pe);                                          \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_ib##OP)                                                        \
    GSI_ALIAS(shmem_##N##_ib##OP)

#define GSI_IPUT_TYPED(T, N) GSI_STRIDED_TYPED(put, T, N)
#define GSI_IGET_TYPED(T, N) GSI_STRIDED_TYPED(get, T, N)
#define GSI_IBPUT_TYPED(T, N) GSI_BLOCKED_TYPED(put, T, N)
#define GSI_IBGET_TYPED(T, N) GSI_BLOCKED_TYPED(get, T, N)
GSHMEM_RMA_TYPES(GSI_IPUT_TYPED)
GSHMEM_RMA_TYPES(GSI_IGET_TYPED)
GSHMEM_RMA_TYPES(GSI_IBPUT_TYPED)
GSHMEM_RMA_TYPES(GSI_IBGET_TYPED)

/* shmem_[ctx_]i{put,get}SIZE and shmem_[ctx_]ib{put,get}SIZE */
#define GSI_STRIDED_SIZED(OP, BITS, BYTES)                                                   \
    void pshmem_ctx_i##OP##BITS(shmem_ctx_t ctx, void *dest, const void *source,             \
                                ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe)         \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        OP##_blocks("shmem_ctx_i" #OP #BITS, dest, source, dst, sst, 1, nelems, BYTES, pe);  \
    }                                                                                        \
    void pshmem_i##OP##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                            size_t nelems, int pe)                                           \
    {                                                                                        \
        OP##_blocks("shmem_i" #OP #BITS, dest, source, dst, sst, 1, nelems, BYTES, pe);      \
    }                                                                                        \
    void pshmem_ctx_ib##OP##BITS(shmem_ctx_t ctx, void *dest, const void *source,            \
                                 ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, \
                                 int pe)                                                     \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        OP##_blocks("shmem_ctx_ib" #OP #BITS, dest, source, dst, sst, bsize, nblocks, BYTES, \
                    pe);                                                                     \
    }                                                                                        \
    void pshmem_ib##OP##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,   \
                             size_t bsize, size_t nblocks, int pe)                           \
    {                                                                                        \
        OP##_blocks("shmem_ib" #OP #BITS, dest, source, dst, sst, bsize, nblocks, BYTES,     \
                    pe);                                                                     \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_i##OP##BITS)                                                         \
    GSI_ALIAS(shmem_i##OP##BITS)                                                             \
    GSI_ALIAS(shmem_ctx_ib##OP##BITS)                                                        \
    GSI_ALIAS(shmem_ib##OP##BITS)

#define GSI_PUT_STRIDED_SIZED(BITS, BYTES) GSI_STRIDED_SIZED(put, BITS, BYTES)
#define GSI_GET_STRIDED_SIZED(BITS, BYTES) GSI_STRIDED_SIZED(get, BITS, BYTES)
GSHMEM_SIZES(GSI_PUT_STRIDED_SIZED)
GSHMEM_SIZES(GSI_GET_STRIDED_SIZED)
