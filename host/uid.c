/* host/uid.c - start without a launcher, from a unique id (shmemx.h). */
#include "api.h"

#include "bootstrap/mpi.h"
#include "bootstrap/uid.h"

_Static_assert(sizeof(gshmemx_uniqueid_t) == sizeof(gsb_uid_t),
               "gshmemx_uniqueid_t holds the bootstrap's id");
/* mpi_comm came out of the reserved bytes: programs built before it still
 * pass a struct of the same size and layout. */
_Static_assert(sizeof(void *) != 8 || (sizeof(gshmemx_init_attr_t) == 200 &&
                                       offsetof(gshmemx_init_attr_t, mpi_comm) == 136),
               "gshmemx_init_attr_t keeps its size and layout");

/* The environment table, read before shmem_init has read it. */
static void load_env(const char *fn, gsi_env_t *env)
{
    char err[512];

    if (gsi_env_load(env, NULL, err, sizeof(err)) != GSI_OK)
        gsi_fatal(fn, "%s", err);
}

static void check_args(const char *fn, int rank, int nranks, const gshmemx_uniqueid_t *uid)
{
    if (!uid)
        gsi_fatal(fn, "the unique id is NULL");
    if (nranks < 1)
        gsi_fatal(fn, "nranks is %d: a job has at least one process", nranks);
    if (rank < 0 || rank >= nranks)
        gsi_fatal(fn, "rank %d is out of range for nranks %d (0 to %d)", rank, nranks,
                  nranks - 1);
    if (gsb_uid_check((const gsb_uid_t *)uid) != 0)
        gsi_fatal(fn, "%s", gsb_error());
}

int pgshmemx_get_uniqueid(gshmemx_uniqueid_t *uid)
{
    static const char fn[] = "gshmemx_get_uniqueid";
    gsi_env_t env;
    gsb_uid_t id;

    if (!uid)
        gsi_fatal(fn, "uid is NULL");
    load_env(fn, &env);
    if (gsb_uid_create(env.uid_ifname, &id) != 0)
        gsi_fatal(fn, "%s", gsb_error());
    memcpy(uid, &id, sizeof(id));
    return 0;
}
GSI_ALIAS(gshmemx_get_uniqueid)

int pgshmemx_set_attr_uniqueid_args(int rank, int nranks, const gshmemx_uniqueid_t *uid,
                                    gshmemx_init_attr_t *attr)
{
    static const char fn[] = "gshmemx_set_attr_uniqueid_args";

    if (!attr)
        gsi_fatal(fn, "attr is NULL");
    check_args(fn, rank, nranks, uid);
    attr->rank = rank;
    attr->nranks = nranks;
    memcpy(&attr->uid, uid, sizeof(*uid));
    return 0;
}
GSI_ALIAS(gshmemx_set_attr_uniqueid_args)

/* GSHMEMX_INIT_WITH_MPI_COMM: the PEs are the communicator's ranks (the
 * plugin's bootstrap, bootstrap/mpi.h).  Until the bootstrap is up, lines
 * name the PE by the launcher's rank (the world's, as for any start). */
static void init_mpi(const char *fn, const gshmemx_init_attr_t *attr)
{
    gsb_mpi_args_t args;
    gsi_env_t env;

    if (!attr)
        gsi_fatal(fn, "attr is NULL: GSHMEMX_INIT_WITH_MPI_COMM takes the communicator from "
                      "attr->mpi_comm");
    if (!attr->mpi_comm)
        gsi_fatal(fn, "attr->mpi_comm is NULL: set it to the address of an MPI_Comm "
                      "(gshmemx_set_attr_mpi_comm_args)");
    load_env(fn, &env);
    args.mpi_comm = attr->mpi_comm;
    args.plugin = env.mpi_plugin;
    gsi_init(fn, SHMEM_THREAD_MULTIPLE, &gsb_mpi_ops, &args);
}

/* GSHMEMX_INIT_WITH_SHMEM: NVSHMEM starts on an OpenSHMEM library the
 * program has started already when attr is given, and starts one itself
 * when attr is NULL; its finalize then ends only what it started.  Here the
 * OpenSHMEM library is gshmem, so both are one more init, which the
 * matching shmem_finalize (nvshmem_finalize) undoes; the running PEs stay
 * as they are. */
static void init_shmem(const char *fn, const gshmemx_init_attr_t *attr)
{
    if (attr && gsi_pe.init_count <= 0)
        gsi_fatal(fn,
                  "GSHMEMX_INIT_WITH_SHMEM with attr uses the running OpenSHMEM library, "
                  "but none is running: call shmem_init first (or pass attr NULL to start "
                  "it here)");
    gsi_init(fn, SHMEM_THREAD_MULTIPLE, NULL, NULL);
}

int pgshmemx_init_attr(unsigned int flags, gshmemx_init_attr_t *attr)
{
    static const char fn[] = "gshmemx_init_attr";
    const unsigned int known = GSHMEMX_INIT_WITH_MPI_COMM | GSHMEMX_INIT_WITH_SHMEM |
                               GSHMEMX_INIT_WITH_UNIQUEID;
    gsb_uid_args_t args;
    gsi_env_t env;

    if (flags & ~known)
        gsi_fatal(fn,
                  "flags 0x%x: the flags are GSHMEMX_INIT_WITH_MPI_COMM (0x%x), "
                  "GSHMEMX_INIT_WITH_SHMEM (0x%x) and GSHMEMX_INIT_WITH_UNIQUEID (0x%x)",
                  flags, GSHMEMX_INIT_WITH_MPI_COMM, GSHMEMX_INIT_WITH_SHMEM,
                  GSHMEMX_INIT_WITH_UNIQUEID);
    if (flags & (flags - 1))
        gsi_fatal(fn,
                  "flags 0x%x: one way to start at a time (MPI communicator, OpenSHMEM or "
                  "unique id)",
                  flags);
    if (flags & GSHMEMX_INIT_WITH_MPI_COMM) {
        init_mpi(fn, attr);
        return 0;
    }
    if (flags & GSHMEMX_INIT_WITH_SHMEM) {
        init_shmem(fn, attr);
        return 0;
    }
    if (!(flags & GSHMEMX_INIT_WITH_UNIQUEID)) {
        gsi_init(fn, SHMEM_THREAD_MULTIPLE, NULL, NULL);
        return 0;
    }
    if (!attr)
        gsi_fatal(fn, "attr is NULL");
    check_args(fn, attr->rank, attr->nranks, &attr->uid);
    load_env(fn, &env);
    args.rank = attr->rank;
    args.size = attr->nranks;
    args.timeout_s = (int)env.uid_timeout;
    memcpy(&args.uid, &attr->uid, sizeof(args.uid));
    gsi_init(fn, SHMEM_THREAD_MULTIPLE, &gsb_uid_ops, &args);
    return 0;
}
GSI_ALIAS(gshmemx_init_attr)
