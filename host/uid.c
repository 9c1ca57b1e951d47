/* host/uid.c - start without a launcher, from a unique id (shmemx.h). */
#include "api.h"

#include "bootstrap/uid.h"

_Static_assert(sizeof(gshmemx_uniqueid_t) == sizeof(gsb_uid_t),
               "gshmemx_uniqueid_t holds the bootstrap's id");

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

int pgshmemx_init_attr(unsigned int flags, gshmemx_init_attr_t *attr)
{
    static const char fn[] = "gshmemx_init_attr";
    gsb_uid_args_t args;
    gsi_env_t env;

    if (flags & ~GSHMEMX_INIT_WITH_UNIQUEID)
        gsi_fatal(fn, "flags 0x%x: the only flag is GSHMEMX_INIT_WITH_UNIQUEID (0x%x)", flags,
                  GSHMEMX_INIT_WITH_UNIQUEID);
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
