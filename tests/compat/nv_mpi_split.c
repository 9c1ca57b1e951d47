/*
 * tests/compat/nv_mpi_split.c - two NVSHMEM jobs in one mpirun: the ranks
 * split by parity (MPI_Comm_split), and each half starts NVSHMEM on its own
 * communicator, as NVSHMEM's dev-guide-ring-mpi example does on the world.
 * Each half passes its PEs' numbers around its ring (a kernel's
 * nvshmem_int_p, nvshmemx_barrier_all_on_stream), puts a block to every PE
 * of its half, and checks that only its own half's values arrived: the
 * halves share a host but nothing else.  At 1 rank there is one half.
 */
#include <mpi.h>

#include "nv_test.h"

#define N 256

GSHMEM_KERNEL(simple_shift, int *, destination)
{
    int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();

    nvshmem_int_p(destination, mype, (mype + 1) % npes);
    /* Complete the put before the kernel ends: gshmem's host barrier does not
     * complete what a kernel left in its proxy channels (over the network). */
    nvshmem_quiet();
}

int main(int argc, char *argv[])
{
    int rank, nranks, half, me, npes, fails, all_fails = 0, *destination, *block;
    int src[N];
    MPI_Comm mpi_comm;
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    stream_t stream = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    half = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, half, rank, &mpi_comm);
    attr.mpi_comm = &mpi_comm;
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);

    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    NV_CHECK("nvshmem_my_pe (rank / 2 in the half)", 0, rank / 2, me);
    NV_CHECK("nvshmem_n_pes (the half's ranks)", 0, (nranks + 1 - half) / 2, npes);

    destination = (int *)nvshmem_malloc(sizeof(int));
    block = (int *)nvshmem_calloc((size_t)N * (size_t)npes, sizeof(int));
    NV_CHECK("nvshmem_malloc != NULL", 0, 1, destination && block);
    *destination = -1;
    nvshmem_barrier_all();
    NV_CHECK("GSHMEM_LAUNCH(simple_shift)", 0, 0,
             GSHMEM_LAUNCH(simple_shift, 1, 1, destination));
    nvshmemx_barrier_all_on_stream(stream);
    STREAM_SYNC(stream);
    NV_CHECK("destination (from the left PE of the half)", 0, (me + npes - 1) % npes,
             *destination);

    /* Every PE of the half gets N ints from every other, tagged by half. */
    for (int i = 0; i < N; i++)
        src[i] = half * 1000000 + me * 1000 + i;
    for (int pe = 0; pe < npes; pe++)
        nvshmem_int_put(block + me * N, src, N, pe);
    nvshmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < N; i++)
            NV_CHECK("block (a put from this half's PE)", pe * N + i,
                     half * 1000000 + pe * 1000 + i, block[pe * N + i]);
    nvshmem_barrier_all();

    fails = nv_done(half ? "nv_mpi_split (odd ranks)" : "nv_mpi_split (even ranks)");
    nvshmem_free(block);
    nvshmem_free(destination);
    nvshmem_finalize();
    MPI_Comm_free(&mpi_comm);
    MPI_Allreduce(&fails, &all_fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_fails ? 1 : 0;
}
