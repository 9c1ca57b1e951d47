/*
 * shmemx.h - gshmem extensions to OpenSHMEM (shmemx_ prefix).
 *
 * Each extension is declared here with its pshmem-style twin (pgshmemx_...),
 * which the library defines; the plain name is a weak alias of it.
 */
#ifndef GSHMEM_SHMEMX_H
#define GSHMEM_SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The PEs of this host, in world order: SHMEM_TEAM_SHARED's members, and
 * also those whose memory is not mapped here (GSHMEM_DISABLE_P2P=1). */
#define SHMEMX_TEAM_NODE (&gshmem_team_node)

/* Print the version, build configuration, bootstraps, transports and every
 * environment variable (default, current value, meaning) to stdout; needs no
 * shmem_init.  Returns 0, or 1 when a variable holds a bad value. */
int gshmemx_info_print(void);
int pgshmemx_info_print(void);

/*
 * Start without a launcher, from a unique id (NVSHMEM's unique-id init is the
 * model).  The process that will be rank 0 calls gshmemx_get_uniqueid; the
 * application hands the id's bytes to every other process by any means; every
 * process then calls gshmemx_set_attr_uniqueid_args with its rank, the number
 * of processes and the id, and gshmemx_init_attr(GSHMEMX_INIT_WITH_UNIQUEID,
 * &attr).  The processes meet over TCP at rank 0's address, on the interface
 * GSHMEM_UID_IFNAME (default: the first up, non-loopback IPv4 interface),
 * within GSHMEM_UID_TIMEOUT seconds.  shmem_finalize ends what
 * gshmemx_init_attr started.  Each routine returns 0; bad input (a rank out of
 * range, nranks that differ between processes, a corrupt id) is reported in
 * one line and ends the process with a nonzero status.
 */
typedef struct {
    char internal[128];
} gshmemx_uniqueid_t;

#define GSHMEMX_UNIQUEID_INITIALIZER                                           \
    {                                                                          \
        {                                                                      \
            0                                                                  \
        }                                                                      \
    }

/* 200 bytes on 64-bit ABIs, as before mpi_comm: it took the first 8 of the
 * 64 reserved bytes (rank, nranks and uid end at 136, a multiple of 8). */
typedef struct {
    int rank;               /* this process, 0..nranks-1 */
    int nranks;             /* processes in the job */
    gshmemx_uniqueid_t uid; /* from gshmemx_get_uniqueid on rank 0 */
    void *mpi_comm;         /* GSHMEMX_INIT_WITH_MPI_COMM: an MPI_Comm * */
    char reserved[56];      /* zero */
} gshmemx_init_attr_t;

#define GSHMEMX_INIT_ATTR_INITIALIZER                                          \
    {                                                                          \
        0, 0, GSHMEMX_UNIQUEID_INITIALIZER, 0,                                 \
        {                                                                      \
            0                                                                  \
        }                                                                      \
    }

/* gshmemx_init_attr flags, NVSHMEM's values.  With no flag,
 * gshmemx_init_attr is shmem_init_thread(SHMEM_THREAD_MULTIPLE).
 *
 * GSHMEMX_INIT_WITH_MPI_COMM: the PEs are the ranks of the MPI communicator
 * *attr->mpi_comm (an MPI_Comm *; gshmemx_set_attr_mpi_comm_args sets it),
 * PE n its rank n; collective over it, after MPI_Init.  A communicator
 * smaller than MPI_COMM_WORLD makes a job of its ranks alone: each part of
 * an MPI_Comm_split may start its own.  gshmem reaches MPI only through its
 * plugin gshmem_bootstrap_mpi.so (built when configure finds mpicc, installed
 * beside libgshmem.so and loaded at this call), so the library itself does
 * not depend on any MPI; without the plugin the call fails with one line.
 * shmem_finalize ends the job; call it before MPI_Finalize.
 *
 * GSHMEMX_INIT_WITH_SHMEM: start on the running OpenSHMEM library, which is
 * gshmem itself: after shmem_init (or any init) this counts one more init,
 * matched by one more shmem_finalize; before any, it fails with one line. */
#define GSHMEMX_INIT_WITH_MPI_COMM (1u << 1)
#define GSHMEMX_INIT_WITH_SHMEM (1u << 2)
#define GSHMEMX_INIT_WITH_UNIQUEID (1u << 3)

/* On the process that will be rank 0: opens its listening socket now, so the
 * id is valid as soon as this returns. */
int gshmemx_get_uniqueid(gshmemx_uniqueid_t *uid);
int pgshmemx_get_uniqueid(gshmemx_uniqueid_t *uid);
int gshmemx_set_attr_uniqueid_args(int rank, int nranks,
                                   const gshmemx_uniqueid_t *uid,
                                   gshmemx_init_attr_t *attr);
int pgshmemx_set_attr_uniqueid_args(int rank, int nranks,
                                    const gshmemx_uniqueid_t *uid,
                                    gshmemx_init_attr_t *attr);
/* Collective over the nranks processes; the thread level is
 * SHMEM_THREAD_MULTIPLE. */
int gshmemx_init_attr(unsigned int flags, gshmemx_init_attr_t *attr);
int pgshmemx_init_attr(unsigned int flags, gshmemx_init_attr_t *attr);
/* NVSHMEM 3.8's host-library init and finalize: gshmem has one library for
 * host and device code, so these are gshmemx_init_attr and shmem_finalize. */
int gshmemx_hostlib_init_attr(unsigned int flags, gshmemx_init_attr_t *attr);
int pgshmemx_hostlib_init_attr(unsigned int flags, gshmemx_init_attr_t *attr);
void gshmemx_hostlib_finalize(void);
void pgshmemx_hostlib_finalize(void);
/* NVSHMEM's: sets attr->mpi_comm = mpi_comm (an MPI_Comm *) for
 * gshmemx_init_attr(GSHMEMX_INIT_WITH_MPI_COMM, attr).  Returns 0; a NULL
 * mpi_comm or attr is reported in one line and returns
 * GSHMEMX_ERROR_INVALID_VALUE, attr untouched. */
int gshmemx_set_attr_mpi_comm_args(void *mpi_comm, gshmemx_init_attr_t *attr);
int pgshmemx_set_attr_mpi_comm_args(void *mpi_comm, gshmemx_init_attr_t *attr);

/*
 * For bindings whose objects view the symmetric heap (Python's gshmem.empty
 * returns a torch tensor over it, freed whenever the program drops it).
 * gshmemx_heap_hold, called between init and shmem_finalize, makes the next
 * finalize leave this PE's heaps (host, and device where there is one)
 * mapped with their contents, while everything else is taken down: such
 * views then read and write local memory that no peer reaches.  The memory
 * stays until gshmemx_heap_release(hold); releasing before finalize cancels
 * the hold.  Each returns 0, or 1 with a line (not initialized; too many
 * holds not yet released; a handle that is not a live hold).
 */
int gshmemx_heap_hold(void **hold);
int pgshmemx_heap_hold(void **hold);
int gshmemx_heap_release(void *hold);
int pgshmemx_heap_release(void *hold);

/*
 * Team reduce-scatter (NVSHMEM's nvshmem_TYPENAME_OP_reducescatter; not in
 * OpenSHMEM 1.6): source holds one block of nreduce elements per member of
 * team, and member i's dest receives the reduction over all members of
 * block i of their source (nreduce elements).  dest is disjoint from source
 * or this PE's own block of it.  The operators and types are those of
 * shmem_TYPENAME_OP_reduce: and/or/xor for GSHMEM_REDUCE_BIT_TYPES, max/min
 * for GSHMEM_REDUCE_MINMAX_TYPES, sum/prod for GSHMEM_REDUCE_ARITH_TYPES.
 * Returns 0, nonzero for a team this PE is not in (it then does nothing).
 */
#define GSHMEMX_REDUCESCATTER_DECL(T, N, OP)                                   \
    GSHMEM_EXTENSION int shmemx_##N##_##OP##_reducescatter(shmem_team_t team,  \
                                                           T *dest,            \
                                                           const T *source,    \
                                                           size_t nreduce);    \
    GSHMEM_EXTENSION int pshmemx_##N##_##OP##_reducescatter(shmem_team_t team, \
                                                            T *dest,           \
                                                            const T *source,   \
                                                            size_t nreduce);
#define GSHMEMX_REDUCESCATTER_BIT(T, N)                                        \
    GSHMEMX_REDUCESCATTER_DECL(T, N, and)                                      \
    GSHMEMX_REDUCESCATTER_DECL(T, N, or)                                       \
    GSHMEMX_REDUCESCATTER_DECL(T, N, xor)
#define GSHMEMX_REDUCESCATTER_MINMAX(T, N)                                     \
    GSHMEMX_REDUCESCATTER_DECL(T, N, max)                                      \
    GSHMEMX_REDUCESCATTER_DECL(T, N, min)
#define GSHMEMX_REDUCESCATTER_ARITH(T, N)                                      \
    GSHMEMX_REDUCESCATTER_DECL(T, N, sum)                                      \
    GSHMEMX_REDUCESCATTER_DECL(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEMX_REDUCESCATTER_BIT)
GSHMEM_REDUCE_MINMAX_TYPES(GSHMEMX_REDUCESCATTER_MINMAX)
GSHMEM_REDUCE_ARITH_TYPES(GSHMEMX_REDUCESCATTER_ARITH)
#undef GSHMEMX_REDUCESCATTER_ARITH
#undef GSHMEMX_REDUCESCATTER_MINMAX
#undef GSHMEMX_REDUCESCATTER_BIT
#undef GSHMEMX_REDUCESCATTER_DECL

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_SHMEMX_H */
