/* host/coll.c - the data-movement collectives: broadcast, collect,
 * fcollect, alltoall, alltoalls (team-based: typed and mem; deprecated
 * active-set: 32 and 64), and the deprecated active-set shmem_barrier and
 * shmem_sync.  Arguments are checked here; src/coll/coll_*.c move the data.
 *
 * Team-based routines return -1 for SHMEM_TEAM_INVALID or a team this PE
 * is not in, 0 otherwise; a bad PE_root, active set, pSync or stride ends
 * the job with one line naming the routine, and so does a team handle that
 * is no live team, or a dest or source that is not wholly in symmetric
 * memory over the bytes the routine touches on this PE (the spec makes
 * both symmetric objects, in the team-based and in the active-set forms).
 * Those checks come before any data moves (collect learns how much of
 * dest it fills only from the offsets, and checks the rest then, still
 * before copying a block), and a failed one ends the whole job, so no PE
 * is left waiting in the collective.  With nelems 0 there is nothing to
 * move and no member waits for another (collect excepted: its sizes may
 * differ between members). */
#include "api.h"

#include "coll/coll_engine.h"

static size_t bytes_of(const char *fn, size_t nelems, size_t size)
{
    if (size && nelems > SIZE_MAX / size)
        gsi_fatal(fn, "nelems %zu of %zu-byte elements overflows size_t", nelems, size);
    return nelems * size;
}

/* nbytes per member, times the group's members: what fcollect's dest and
 * alltoall's dest and source hold. */
static size_t group_bytes(const char *fn, const gsi_group_t *g, size_t nbytes)
{
    if (nbytes > SIZE_MAX / (size_t)g->n)
        gsi_fatal(fn, "%zu bytes for each of %d PEs overflow size_t", nbytes, g->n);
    return nbytes * (size_t)g->n;
}

/* The bytes an alltoalls array with `stride` spans: n blocks of nelems
 * elements, element k of block b at index (b * nelems + k) * stride, so
 * the last at (n * nelems - 1) * stride. */
static size_t strided_bytes(const char *fn, const gsi_group_t *g, size_t nelems,
                            ptrdiff_t stride, size_t size)
{
    size_t count = nelems, last;

    if (count > SIZE_MAX / (size_t)g->n)
        goto err_overflow;
    count *= (size_t)g->n;
    if (count - 1 > (SIZE_MAX - 1) / (size_t)stride)
        goto err_overflow;
    last = (count - 1) * (size_t)stride + 1;
    if (last > SIZE_MAX / size)
        goto err_overflow;
    return last * size;
err_overflow:
    gsi_fatal(fn, "nelems %zu at stride %td over %d PEs overflows size_t", nelems, stride,
              g->n);
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
    gsi_check_symmetric(fn, "dest", dest, nbytes);
    gsi_check_symmetric(fn, "source", source, nbytes);
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
    gsi_check_symmetric(fn, "dest", dest, nbytes);
    gsi_check_symmetric(fn, "source", source, nbytes);
    if (nbytes)
        gsi_coll_broadcast(fn, &g, dest, source, nbytes, root, 0);
}

/* --- collect, fcollect, alltoall: the same shape --------------------------- */

typedef void (*copy_fn_t)(const char *fn, gsi_group_t *g, void *dest, const void *source,
                          size_t nbytes);

/* What each routine of the shape touches on this PE, for its checks. */
typedef enum { COPY_COLLECT, COPY_FCOLLECT, COPY_ALLTOALL } copy_kind_t;

static const copy_fn_t copy_ops[] = {
    [COPY_COLLECT] = gsi_coll_collect,
    [COPY_FCOLLECT] = gsi_coll_fcollect,
    [COPY_ALLTOALL] = gsi_coll_alltoall,
};

/* collect: source holds this PE's nbytes; dest the sum over the members,
 * which only the engine learns (gsi_coll_collect checks the rest), but
 * never less than this PE's own block.  fcollect: dest n blocks, source
 * one.  alltoall: n blocks each. */
static void check_copy(const char *fn, copy_kind_t kind, const gsi_group_t *g, void *dest,
                       const void *source, size_t nbytes)
{
    size_t all = kind == COPY_COLLECT ? nbytes : group_bytes(fn, g, nbytes);

    gsi_check_symmetric(fn, "dest", dest, all);
    gsi_check_symmetric(fn, "source", source, kind == COPY_ALLTOALL ? all : nbytes);
}

static int team_copy(const char *fn, copy_kind_t kind, shmem_team_t team, void *dest,
                     const void *source, size_t nelems, size_t size)
{
    gsi_group_t g;
    size_t nbytes = bytes_of(fn, nelems, size);

    gsi_check_init(fn);
    if (gsi_group_team(fn, &g, team) < 0)
        return -1;
    check_copy(fn, kind, &g, dest, source, nbytes);
    if (nbytes || kind == COPY_COLLECT)
        copy_ops[kind](fn, &g, dest, source, nbytes);
    return 0;
}

static void aset_copy(const char *fn, copy_kind_t kind, void *dest, const void *source,
                      size_t nelems, size_t size, int pe_start, int log_stride, int pe_size,
                      long *psync)
{
    gsi_group_t g;
    size_t nbytes = bytes_of(fn, nelems, size);

    aset_group(fn, &g, pe_start, log_stride, pe_size, psync);
    check_copy(fn, kind, &g, dest, source, nbytes);
    if (nbytes || kind == COPY_COLLECT)
        copy_ops[kind](fn, &g, dest, source, nbytes);
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
    if (nelems) {
        gsi_check_symmetric(fn, "dest", dest, strided_bytes(fn, &g, nelems, dst, size));
        gsi_check_symmetric(fn, "source", source, strided_bytes(fn, &g, nelems, sst, size));
        gsi_coll_alltoalls(fn, &g, dest, source, dst, sst, size, nelems);
    }
    return 0;
}

static void aset_alltoalls(const char *fn, void *dest, const void *source, ptrdiff_t dst,
                           ptrdiff_t sst, size_t nelems, size_t size, int pe_start,
                           int log_stride, int pe_size, long *psync)
{
    gsi_group_t g;

    aset_group(fn, &g, pe_start, log_stride, pe_size, psync);
    check_strides(fn, dst, sst);
    if (nelems) {
        gsi_check_symmetric(fn, "dest", dest, strided_bytes(fn, &g, nelems, dst, size));
        gsi_check_symmetric(fn, "source", source, strided_bytes(fn, &g, nelems, sst, size));
        gsi_coll_alltoalls(fn, &g, dest, source, dst, sst, size, nelems);
    }
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
        return team_copy("shmem_" #N "_collect", COPY_COLLECT, team, dest, source, nelems,   \
                         sizeof(T));                                                         \
    }                                                                                        \
    int pshmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems)    \
    {                                                                                        \
        return team_copy("shmem_" #N "_fcollect", COPY_FCOLLECT, team, dest, source, nelems, \
                         sizeof(T));                                                         \
    }                                                                                        \
    int pshmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems)    \
    {                                                                                        \
        return team_copy("shmem_" #N "_alltoall", COPY_ALLTOALL, team, dest, source, nelems, \
                         sizeof(T));                                                         \
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
    return team_copy("shmem_collectmem", COPY_COLLECT, team, dest, source, nelems, 1);
}
GSI_ALIAS(shmem_collectmem)

int pshmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_copy("shmem_fcollectmem", COPY_FCOLLECT, team, dest, source, nelems, 1);
}
GSI_ALIAS(shmem_fcollectmem)

int pshmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_copy("shmem_alltoallmem", COPY_ALLTOALL, team, dest, source, nelems, 1);
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
        aset_copy("shmem_collect" #BITS, COPY_COLLECT, dest, source, nelems, (BITS) / 8,     \
                  PE_start, logPE_stride, PE_size, pSync);                                   \
    }                                                                                        \
    void pshmem_fcollect##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                               int logPE_stride, int PE_size, long *pSync)                   \
    {                                                                                        \
        aset_copy("shmem_fcollect" #BITS, COPY_FCOLLECT, dest, source, nelems, (BITS) / 8,   \
                  PE_start, logPE_stride, PE_size, pSync);                                   \
    }                                                                                        \
    void pshmem_alltoall##BITS(void *dest, const void *source, size_t nelems, int PE_start,  \
                               int logPE_stride, int PE_size, long *pSync)                   \
    {                                                                                        \
        aset_copy("shmem_alltoall" #BITS, COPY_ALLTOALL, dest, source, nelems, (BITS) / 8,   \
                  PE_start, logPE_stride, PE_size, pSync);                                   \
    }                                                                                        \
    void pshmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst,               \
                                ptrdiff_t sst, size_t nelems, int PE_start,                  \
                                int logPE_stride, int PE_size, long *pSync)                  \
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
