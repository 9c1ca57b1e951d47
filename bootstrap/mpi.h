/* bootstrap/mpi.h - the PEs of an MPI communicator
 * (gshmemx_init_attr(GSHMEMX_INIT_WITH_MPI_COMM)).
 *
 * The library never links MPI nor reads an MPI header: MPI_Comm is an int in
 * MPICH and a pointer in Open MPI, so only code built with the job's mpicc
 * may touch one.  That code is the plugin gshmem_bootstrap_mpi.so
 * (bootstrap/mpi_plugin.c), which gsb_mpi_ops loads at init and reaches
 * through the table below: plain C types only, versioned by its entry
 * point's name. */
#ifndef GSB_MPI_H
#define GSB_MPI_H

#include <stddef.h>

#include "bootstrap.h"

/* gsb_mpi_ops.init's args. */
typedef struct gsb_mpi_args {
    void *mpi_comm;     /* an MPI_Comm * of the program's MPI */
    const char *plugin; /* GSHMEM_BOOTSTRAP_MPI_PLUGIN: a file name or a path */
} gsb_mpi_args_t;

extern const gsb_ops_t gsb_mpi_ops;

#define GSB_MPI_PLUGIN_ENTRY "gshmem_bootstrap_mpi_v1"

/* What the plugin does.  Every routine returns 0, or nonzero with one
 * sentence in err.  One collective is in flight at a time: started by
 * iallgather or ibarrier, then test until done, so that the library bounds
 * the wait (GSHMEM_WAIT_TIMEOUT) instead of blocking inside MPI forever. */
typedef struct gsb_mpi_plugin {
    /* Starts the duplication of *mpi_comm (gshmem's traffic never matches
     * the program's): a collective like the others, then test. */
    int (*init)(void *mpi_comm, char *err, size_t errlen);
    /* Once the duplicate is made: this rank in it, and its size. */
    int (*ranks)(int *rank, int *size, char *err, size_t errlen);
    int (*iallgather)(const void *in, void *out, size_t len, char *err, size_t errlen);
    int (*ibarrier)(char *err, size_t errlen);
    int (*test)(int *done, char *err, size_t errlen);
    void (*abort)(int status); /* MPI_Abort on the communicator */
    /* Frees the duplicate (nothing once MPI_Finalize has run). */
    int (*finalize)(char *err, size_t errlen);
} gsb_mpi_plugin_t;

typedef const gsb_mpi_plugin_t *(*gsb_mpi_entry_fn_t)(void);

#endif
