/* host/coll.c - the data-movement collectives: broadcast, collect,
 * fcollect, alltoall, alltoalls (team-based: typed and mem; deprecated
 * active-set: 32 and 64), and the deprecated active-set shmem_barrier and
 * shmem_sync.  Arguments are checked here; src/coll/coll_*.c move the data.
 *
 * Team-based routines return -1 for SHMEM_TEAM_INVALID or a team this PE
 * is not in, 0 otherwise; a bad PE_root, active set, pSync or stride ends
 * the job with one line naming the routine.  With nelems 0 there is
 * nothing to move and no member waits for another (collect excepted: its
 * sizes may differ between members). */
#include "api.h"

#include "coll/coll_engine.h"

static size_t bytes_of(const char *fn, size_t nelems, size_t size)
{
    if (size && nelems > SIZE_MAX / size)
        gsi_fatal(fn, "nelems %zu of %zu-byte elements overflows size_t", nelems, size);
    return nelems * size;
}

/* The group of an active set (gsi_group_aset checks the set and pSync). */
static void aset_group(const char *fn, gsi_group_t *g, int pe_start, int log_stride,
                       int pe_size, long *psync)
{
    gsi_check_init(fn);
    gsi_group_aset(fn, g, pe_start, log_stride, pe_size, psync);
}

static void check_root(const char *fn, const gsi_group_t *g, int root, const char *set)
{
    if (root < 0 || root >= g->n)
        gsi_fatal(fn, "PE_root %d is not a PE of the %s (0..%d)", root, set, g->n - 1);
}

static void check_strides(const char *fn, ptrdiff_t dst, ptrdiff_t sst)
{
    if (dst < 1 || sst < 1)
        gsi_fatal(fn, "strides dst %td and sst %td must be at least 1", dst, sst);
}

/* --- broadcast ------------------------------------------------------------ */

static int team_broadcast(const char *fn, shmem_team_t team, void *dest, const void *source,
                          size_t nelems, size_t size, int root)
{
    gsi_group_t g;
    size_t nbytes = bytes_of(fn, nelems, size);

    gsi_check_init(fn);
    if (gsi_group_team(fn, &g, team) < 0)
        return -1;
    check_root(fn, &g, root, "team");
    if (nbytes)
        gsi_coll_broadcast(fn, &g, dest, source, nbytes, root, 1);
    return 0;
}

static void aset_broadcast(const char *fn, void *dest, const void *source, size_t nelems,
                           size_t size, int root, int pe_start, int log_stride, int pe_size,
                           long *psync)
{
    gsi_group_t g;
    size_t nbytes = bytes_of(fn, nelems, size);

    aset_group(fn, &g, pe_start, log_stride, pe_size, psync);
    check_root(fn, &g, root, "active set");
    if (nbytes)
        gsi_coll_broadcast(fn, &g, dest, source, nbytes, root, 0);
}

/* --- collect, fcollect, alltoall: the same shape --------------------------- */

typedef void (*copy_fn_t)(const char *fn, gsi_group_t *g, void *dest, const void *source,
                          size_t nbytes);

static int team_copy(const char *fn, copy_fn_t op, int always, shmem_team_t team, void *dest,
                     const void *source, size_t nelems, size_t size)
{
    gsi_group_t g;
    size_t nbytes = bytes_of(fn, nelems, size);

    gsi_check_init(fn);
    if (gsi_group_team(fn, &g, team) < 0)
        return -1;
    if (nbytes || always)
        op(fn, &g, dest, source, nbytes);
    return 0;
}

static void aset_copy(const char *fn, copy_fn_t op, int always, void *dest, const void *source,
                      size_t nelems, size_t size, int pe_start, int log_stride, int pe_size,
                      long *psync)
{
    gsi_group_t g;
    size_t nbytes = bytes_of(fn, nelems, size);

    aset_group(fn, &g, pe_start, log_stride, pe_size, psync);
    if (nbytes || always)
        op(fn, &g, dest, source, nbytes);
}

/* --- alltoalls ------------------------------------------------------------ */

static int team_alltoalls(const char *fn, shmem_team_t team, void *dest, const void *source,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t size)
{
    gsi_group_t g;

    gsi_check_init(fn);
    if (gsi_group_team(fn, &g, team) < 0)
        return -1;
    check_strides(fn, dst, sst);
    if (nelems)
        gsi_coll_alltoalls(fn, &g, dest, source, dst, sst, size, nelems);
    return 0;
}

static void aset_alltoalls(const char *fn, void *dest, const void *source, ptrdiff_t dst,
                           ptrdiff_t sst, size_t nelems, size_t size, int pe_start,
                           int log_stride, int pe_size, long *psync)
{
    gsi_group_t g;

    aset_group(fn, &g, pe_start, log_stride, pe_size, psync);
    check_strides(fn, dst, sst);
    if (nelems)
        gsi_coll_alltoalls(fn, &g, dest, source, dst, sst, size, nelems);
}

/* --- the routines ---------------------------------------------------------- */

/* shmem_TYPENAME_{broadcast,collect,fcollect,alltoall,alltoalls} */
#define GSI_COLL_TYPED(T, N)                                                                 \
    int pshmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,   \
                               int PE_root)                                                  \
    {                                                                                        \
        return team_broadcast("shmem_" #N "_broadcast", team, dest, source, nelems,          \
                              sizeof(T), PE_root);                                           \
    }                                                                                        \
    int pshmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems)     \
    {                                                                                        \
        return team_copy("shmem_" #N "_collect", gsi_coll_collect, 1, team, dest, source,    \
                         nelems, sizeof(T));                                                 \
    }                                                                                        \
    int pshmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)    \
    {                                                                                        \
        return team_copy("shmem_" #N "_fcollect", gsi_coll_fcollect, 0, team, dest, source,  \
                         nelems, sizeof(T));                                                 \
    }                                                                                        \
    int pshmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)    \
    {                                                                                        \
        return team_copy("shmem_" #N "_alltoall", gsi_coll_alltoall, 0, team, dest, source,  \
                         nelems, sizeof(T));                                                 \
    }                                                                                        \
    int pshmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,   \
                               ptrdiff_t sst, size_t nelems)                                 \
    {                                                                                        \
        return team_alltoalls("shmem_" #N "_alltoalls", team, dest, source, dst, sst,        \
                              nelems, sizeof(T));                                            \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_broadcast)                                                         \
    GSI_ALIAS(shmem_##N##_collect)                                                           \
    GSI_ALIAS(shmem_##N##_fcollect)                                                          \
    GSI_ALIAS(shmem_##N##_alltoall)                                                          \
    GSI_ALIAS(shmem_##N##_alltoalls)
GSHMEM_RMA_TYPES(GSI_COLL_TYPED)
#undef GSI_COLL_TYPED

int pshmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                        int PE_root)
{
    return team_broadcast("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root);
}
GSI_ALIAS(shmem_broadcastmem)

int pshmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_copy("shmem_collectmem", gsi_coll_collect, 1, team, dest, source, nelems, 1);
}
GSI_ALIAS(shmem_collectmem)

int pshmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_copy("shmem_fcollectmem", gsi_coll_fcollect, 0, team, dest, source, nelems, 1);
}
GSI_ALIAS(shmem_fcollectmem)

int pshmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_copy("shmem_alltoallmem", gsi_coll_alltoall, 0, team, dest, source, nelems, 1);
}
GSI_ALIAS(shmem_alltoallmem)

int pshmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems)
{
    return team_alltoalls("shmem_alltoallsmem", team, dest, source, dst, sst, nelems, 1);
}
GSI_ALIAS(shmem_alltoallsmem)

/* Deprecated: shmem_{broadcast,collect,fcollect,alltoall,alltoalls}{32,64} */
#define GSI_COLL_SIZED(BITS)                                                                 \
    void pshmem_broadcast##BITS(void *dest, const void *source, size_t nelems, int PE_root,  \
                                int PE_start, int logPE_stride, int PE_size, long *pSync)    \
    {                                                                                        \
        aset_broadcast("shmem_broadcast" #BITS, dest, source, nelems, (BITS) / 8, PE_root,   \
                       PE_start, logPE_stride, PE_size, pSync);                              \
    }                                                                                        \
    void pshmem_collect##BITS(void *dest, const void *source, size_t nelems, int PE_start,   \
                              int logPE_stride, int PE_size, long *pSync)                    \
    {                                                                                        \
        aset_copy("shmem_collect" #BITS, gsi_coll_collect, 1, dest, source, nelems,          \
                  (BITS) / 8, PE_start, logPE_stride, PE_size, pSync);                       \
    }                                                                                        \
    void pshmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                               int logPE_stride, int PE_size, long *pSync)                   \
    {                                                                                        \
        aset_copy("shmem_fcollect" #BITS, gsi_coll_fcollect, 0, dest, source, nelems,        \
                  (BITS) / 8, PE_start, logPE_stride, PE_size, pSync);                       \
    }                                                                                        \
    void pshmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                               int logPE_stride, int PE_size, long *pSync)                   \
    {                                                                                        \
        aset_copy("shmem_alltoall" #BITS, gsi_coll_alltoall, 0, dest, source, nelems,        \
                  (BITS) / 8, PE_start, logPE_stride, PE_size, pSync);                       \
    }                                                                                        \
    void pshmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                                size_t nelems, int PE_start, int logPE_stride, int PE_size,  \
                                long *pSync)                                                 \
    {                                                                                        \
        aset_alltoalls("shmem_alltoalls" #BITS, dest, source, dst, sst, nelems, (BITS) / 8,  \
                       PE_start, logPE_stride, PE_size, pSync);                              \
    }                                                                                        \
    GSI_ALIAS(shmem_broadcast##BITS)                                                         \
    GSI_ALIAS(shmem_collect##BITS)                                                           \
    GSI_ALIAS(shmem_fcollect##BITS)                                                          \
    GSI_ALIAS(shmem_alltoall##BITS)                                                          \
    GSI_ALIAS(shmem_alltoalls##BITS)
GSI_COLL_SIZED(32)
GSI_COLL_SIZED(64)
#undef GSI_COLL_SIZED

/* Deprecated active-set barrier (with completion) and sync (without). */
void pshmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    const char *fn = "shmem_barrier";
    gsi_group_t g;

    aset_group(fn, &g, PE_start, logPE_stride, PE_size, pSync);
    gsi_group_barrier(fn, &g, 1);
}
GSI_ALIAS(shmem_barrier)

void pshmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    const char *fn = "shmem_sync";
    gsi_group_t g;

    aset_group(fn, &g, PE_start, logPE_stride, PE_size, pSync);
    gsi_group_barrier(fn, &g, 0);
}
GSI_ALIAS(shmem_sync)
