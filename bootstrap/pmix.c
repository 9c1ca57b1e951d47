/* bootstrap/pmix.c - PEs launched by a PMIx server: Open MPI's mpirun, or
 * Slurm's srun --mpi=pmix.  Allgather is Put + Commit + Fence(collect) + Get. */
#include "bootstrap.h"

#include <errno.h>
#include <pmix.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pmix_proc_t self;
static pmix_proc_t wildcard;
static int job_size;
static unsigned long allgather_round;
/* The launcher connection is made once and kept for the life of the
 * process: a PMIx_Finalize then PMIx_Init in one process (shmem_finalize,
 * then shmem_init again) made later fences fail with PARTIAL SUCCESS, gets
 * time out, or hang, most runs over UCX.  `finalized`: the library is
 * finalized now, so the connection is closed at exit (pmix_at_exit); a
 * process that exits without shmem_finalize leaves it as before. */
static int connected, finalized, at_exit_set;

static int fail(const char *what, pmix_status_t rc)
{
    gsb_set_error("pmix: %s failed: %s", what, PMIx_Error_string(rc));
    return -EIO;
}

/* One fence at a time: its callback's answer.  Static, as is the info a
 * fence is given: a fence that timed out may still answer later. */
static struct fence_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    pmix_status_t status;
} fence_wait = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, PMIX_SUCCESS};

static void fence_done(pmix_status_t status, void *cbdata)
{
    struct fence_wait *f = cbdata;

    pthread_mutex_lock(&f->lock);
    f->status = status;
    f->done = 1;
    pthread_cond_signal(&f->cond);
    pthread_mutex_unlock(&f->lock);
}

/* PMIx_Fence bounded by the wait limits (bootstrap.h): the non-blocking
 * fence, then a wait for its callback.  The blocking one waited forever
 * for a rank that never came to the fence (one that skipped a collective
 * registration, say), whatever GSHMEM_WAIT_TIMEOUT said. */
static int fence(const pmix_info_t *info, size_t ninfo, const char *what)
{
    struct fence_wait *f = &fence_wait;
    pmix_status_t rc;
    gsb_wait_t w;
    int err = 0;

    pthread_mutex_lock(&f->lock);
    f->done = 0;
    pthread_mutex_unlock(&f->lock);
    rc = PMIx_Fence_nb(&wildcard, 1, info, ninfo, fence_done, f);
    if (rc == PMIX_OPERATION_SUCCEEDED)
        return 0;
    if (rc != PMIX_SUCCESS)
        return fail("PMIx_Fence_nb", rc);
    gsb_wait_begin(&w);
    pthread_mutex_lock(&f->lock);
    while (!f->done && !err)
        err = gsb_wait_cond(&w, &f->cond, &f->lock, "pmix", what);
    rc = f->status;
    pthread_mutex_unlock(&f->lock);
    if (err)
        return err;
    return rc == PMIX_SUCCESS ? 0 : fail("PMIx_Fence", rc);
}

static int pmix_init(const void *args, gsb_info_t *info)
{
    (void)args;
    pmix_value_t *value = NULL;
    pmix_status_t rc;

    if (connected) { /* init after finalize: the same connection and job */
        finalized = 0;
        info->rank = (int)self.rank;
        info->size = job_size;
        return 0;
    }

    /* The client's default shared-memory datastore (gds ds21) costs ~8 ms of
     * attach time at every start; the hash datastore takes ~2 ms and is ample
     * for the few hundred bytes each PE publishes.  A user's choice wins. */
    setenv("PMIX_MCA_gds", "hash", 0);
    /* The launcher (mpirun, slurmstepd) is our parent: if it dies, so do we,
     * rather than wait forever for peers it took down with it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    rc = PMIx_Init(&self, NULL, 0);
    if (rc != PMIX_SUCCESS)
        return fail("PMIx_Init (is this process started by mpirun or srun --mpi=pmix?)", rc);
    PMIX_PROC_CONSTRUCT(&wildcard);
    PMIX_LOAD_PROCID(&wildcard, self.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wildcard, PMIX_JOB_SIZE, NULL, 0, &value);
    if (rc != PMIX_SUCCESS)
        goto err_finalize;
    job_size = (int)value->data.uint32;
    PMIX_VALUE_RELEASE(value);
    connected = 1;
    info->rank = (int)self.rank;
    info->size = job_size;
    return 0;

err_finalize:
    fail("PMIx_Get(PMIX_JOB_SIZE)", rc);
    PMIx_Finalize(NULL, 0);
    return -EIO;
}

static int pmix_allgather(const void *in, void *out, size_t len)
{
    static pmix_info_t collect;
    static int collect_set;
    char key[PMIX_MAX_KEYLEN], what[96];
    pmix_value_t value, *got;
    pmix_proc_t peer;
    pmix_status_t rc;
    bool yes = true;
    int err;

    if (!collect_set) {
        PMIX_INFO_CONSTRUCT(&collect);
        PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
        collect_set = 1;
    }

    snprintf(key, sizeof(key), "gshmem.ag.%lu", allgather_round++);
    PMIX_VALUE_CONSTRUCT(&value);
    value.type = PMIX_BYTE_OBJECT;
    value.data.bo.bytes = (char *)in;
    value.data.bo.size = len;
    rc = PMIx_Put(PMIX_GLOBAL, key, &value);
    if (rc != PMIX_SUCCESS)
        return fail("PMIx_Put", rc);
    rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        return fail("PMIx_Commit", rc);
    snprintf(what, sizeof(what), "every PE to reach exchange %lu (PMIx_Fence)",
             allgather_round - 1);
    err = fence(&collect, 1, what);
    if (err)
        return err;
    PMIX_PROC_CONSTRUCT(&peer);
    for (int r = 0; r < job_size; r++) {
        PMIX_LOAD_PROCID(&peer, self.nspace, (pmix_rank_t)r);
        rc = PMIx_Get(&peer, key, NULL, 0, &got);
        if (rc != PMIX_SUCCESS)
            return fail("PMIx_Get", rc);
        if (got->type != PMIX_BYTE_OBJECT || got->data.bo.size != len) {
            PMIX_VALUE_RELEASE(got);
            gsb_set_error("pmix: rank %d published %s bytes, expected %zu", r,
                          "a different number of", len);
            return -EPROTO;
        }
        memcpy((char *)out + (size_t)r * len, got->data.bo.bytes, len);
        PMIX_VALUE_RELEASE(got);
    }
    return 0;
}

static int pmix_barrier(void)
{
    return fence(NULL, 0, "every PE to reach the barrier (PMIx_Fence)");
}

static void pmix_abort(int status, const char *msg)
{
    fflush(NULL);
    PMIx_Abort(status, msg ? msg : "gshmem: job aborted", &wildcard, 1);
    _exit(status);
}

static void pmix_at_exit(void)
{
    if (connected && finalized)
        PMIx_Finalize(NULL, 0);
    connected = 0;
}

/* Kept open for a later init; closed at exit (see `connected`).  The
 * exit handler is registered here, not at init, so that it runs after a
 * finalize that an exit handler of the program's (start_pes) makes. */
static int pmix_finalize(void)
{
    pmix_status_t rc;

    finalized = 1;
    if (!at_exit_set && atexit(pmix_at_exit) == 0)
        at_exit_set = 1;
    if (at_exit_set)
        return 0;
    /* No exit handler: closed now, as before. */
    connected = 0;
    rc = PMIx_Finalize(NULL, 0);
    return rc == PMIX_SUCCESS ? 0 : fail("PMIx_Finalize", rc);
}

const gsb_ops_t gsb_pmix_ops = {
    .name = "pmix",
    .init = pmix_init,
    .allgather = pmix_allgather,
    .barrier = pmix_barrier,
    .abort = pmix_abort,
    .finalize = pmix_finalize,
};
