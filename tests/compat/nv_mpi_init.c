/*
 * tests/compat/nv_mpi_init.c - an MPI program starts NVSHMEM on
 * MPI_COMM_WORLD, as NVSHMEM's mpi-based-init example does: PE n is rank n,
 * a kernel shifts each PE's number to the right PE, and MPI still works
 * between and after.  Then a second start, after nvshmem_finalize, with
 * attr set by nvshmemx_set_attr_mpi_comm_args on a duplicate of the world
 * in reverse order (MPI_Comm_split by -rank): PE n is then rank nranks-1-n.
 */
#include <mpi.h>

#include "nv_test.h"

GSHMEM_KERNEL(simple_shift, int *, target)
{
    int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();

    nvshmem_int_p(target, mype, (mype + 1) % npes);
    /* Complete the put before the kernel ends: gshmem's host barrier does not
     * complete what a kernel left in its proxy channels (over the network). */
    nvshmem_quiet();
}

/* One NVSHMEM job on `comm`: its PEs are the ranks of comm, in its order. */
static void run(MPI_Comm comm, const char *how)
{
    int rank, nranks, me, npes, *target;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    NV_CHECK(how, 0, rank, me);
    NV_CHECK(how, 1, nranks, npes);
    NV_CHECK("nvshmemx_init_status", 0, NVSHMEM_STATUS_IS_INITIALIZED, nvshmemx_init_status());
    /* One host: the node team is the world. */
    NV_CHECK("nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE)", 0, me,
             nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE));
    target = (int *)nvshmem_malloc(sizeof(int));
    NV_CHECK("nvshmem_malloc != NULL", 0, 1, target != NULL);
    *target = -1;
    nvshmem_barrier_all();
    NV_CHECK("GSHMEM_LAUNCH(simple_shift)", 0, 0, GSHMEM_LAUNCH(simple_shift, 1, 1, target));
    nvshmem_barrier_all();
    NV_CHECK(how, 2, (me + npes - 1) % npes, *target); /* from the left PE */
    nvshmem_free(target);
}

int main(int argc, char *argv[])
{
    int rank, nranks, fails, all_fails = 0;
    MPI_Comm mpi_comm, reversed;
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    nvshmemx_init_attr_t attr2 = NVSHMEMX_INIT_ATTR_INITIALIZER;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    mpi_comm = MPI_COMM_WORLD;
    attr.mpi_comm = &mpi_comm;
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
    run(MPI_COMM_WORLD, "PE of MPI_COMM_WORLD's rank");
    /* MPI between: gshmem's traffic is on its own duplicate. */
    MPI_Allreduce(&nv_fails, &all_fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    NV_CHECK("MPI_Allreduce while NVSHMEM runs", 0, 1, all_fails >= 0);
    nvshmem_finalize();
    NV_CHECK("nvshmemx_init_status after finalize", 0, NVSHMEM_STATUS_NOT_INITIALIZED,
             nvshmemx_init_status());

    MPI_Comm_split(MPI_COMM_WORLD, 0, nranks - rank, &reversed);
    NV_CHECK("nvshmemx_set_attr_mpi_comm_args", 0, 0,
             nvshmemx_set_attr_mpi_comm_args(&reversed, &attr2));
    NV_CHECK("attr.mpi_comm", 0, 1, attr2.mpi_comm == (void *)&reversed);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr2);
    NV_CHECK("PE in the reversed communicator", 0, nranks - 1 - rank, nvshmem_my_pe());
    run(reversed, "PE of the reversed communicator's rank");
    fails = nv_done("nv_mpi_init");
    nvshmem_finalize();
    MPI_Comm_free(&reversed);

    MPI_Allreduce(&fails, &all_fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_fails ? 1 : 0;
}
