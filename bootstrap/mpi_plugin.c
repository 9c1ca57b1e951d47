/* bootstrap/mpi_plugin.c - gshmem_bootstrap_mpi.so: the bootstrap's MPI
 * calls, built with the MPI configure found (bootstrap/mpi.h says why it is
 * apart from the library).  It exports one symbol, its table. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#include "bootstrap/mpi.h"

static MPI_Comm comm = MPI_COMM_NULL;
static MPI_Request pending = MPI_REQUEST_NULL;

static int mpi_fail(const char *what, int rc, char *err, size_t errlen)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;

    if (MPI_Error_string(rc, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof(text), "error %d", rc);
    snprintf(err, errlen, "%s failed: %s", what, text);
    return -1;
}

static int plugin_init(void *mpi_comm, char *err, size_t errlen)
{
    int up = 0, down = 0, rc;

    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (!up || down) {
        snprintf(err, errlen,
                 "MPI is %s: call MPI_Init first and MPI_Finalize after shmem_finalize",
                 down ? "finalized" : "not initialized");
        return -1;
    }
    if (*(MPI_Comm *)mpi_comm == MPI_COMM_NULL) {
        snprintf(err, errlen, "*mpi_comm is MPI_COMM_NULL: this process is in no communicator");
        return -1;
    }
    /* Non-blocking, so that a rank that never comes is a timeout, not a hang. */
    rc = MPI_Comm_idup(*(MPI_Comm *)mpi_comm, &comm, &pending);
    return rc == MPI_SUCCESS ? 0 : mpi_fail("MPI_Comm_idup", rc, err, errlen);
}

static int plugin_ranks(int *rank, int *size, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    /* Errors come back to gshmem, which reports them in its own line. */
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, rank);
    MPI_Comm_size(comm, size);
    return 0;
}

static int plugin_iallgather(const void *in, void *out, size_t len, char *err, size_t errlen)
{
    int rc;

    if (len > INT_MAX) {
        snprintf(err, errlen, "an allgather of %zu bytes per rank is past MPI's int count", len);
        return -1;
    }
    rc = MPI_Iallgather(in, (int)len, MPI_BYTE, out, (int)len, MPI_BYTE, comm, &pending);
    return rc == MPI_SUCCESS ? 0 : mpi_fail("MPI_Iallgather", rc, err, errlen);
}

static int plugin_ibarrier(char *err, size_t errlen)
{
    int rc = MPI_Ibarrier(comm, &pending);

    return rc == MPI_SUCCESS ? 0 : mpi_fail("MPI_Ibarrier", rc, err, errlen);
}

static int plugin_test(int *done, char *err, size_t errlen)
{
    int rc = MPI_Test(&pending, done, MPI_STATUS_IGNORE);

    return rc == MPI_SUCCESS ? 0 : mpi_fail("MPI_Test", rc, err, errlen);
}

static void plugin_abort(int status)
{
    int down = 0;

    MPI_Finalized(&down);
    if (down) { /* no MPI call is legal now: this process alone ends */
        fflush(NULL);
        _exit(status);
    }
    MPI_Abort(comm != MPI_COMM_NULL ? comm : MPI_COMM_WORLD, status);
}

static int plugin_finalize(char *err, size_t errlen)
{
    int down = 0, rc;

    MPI_Finalized(&down);
    if (down || comm == MPI_COMM_NULL) {
        comm = MPI_COMM_NULL;
        return 0;
    }
    rc = MPI_Comm_free(&comm);
    return rc == MPI_SUCCESS ? 0 : mpi_fail("MPI_Comm_free", rc, err, errlen);
}

static const gsb_mpi_plugin_t table = {
    .init = plugin_init,
    .ranks = plugin_ranks,
    .iallgather = plugin_iallgather,
    .ibarrier = plugin_ibarrier,
    .test = plugin_test,
    .abort = plugin_abort,
    .finalize = plugin_finalize,
};

__attribute__((visibility("default"))) const gsb_mpi_plugin_t *gshmem_bootstrap_mpi_v1(void)
{
    return &table;
}
