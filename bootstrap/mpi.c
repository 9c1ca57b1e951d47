/* bootstrap/mpi.c - the PEs of an MPI communicator, through the plugin
 * gshmem_bootstrap_mpi.so (bootstrap/mpi.h): loaded at the first init with
 * an MPI communicator, never unloaded (MPI libraries do not survive a
 * dlclose), and looked for beside libgshmem.so first, so that a build tree
 * and an installed tree each find their own. */
#define _GNU_SOURCE /* dladdr */
#include "bootstrap/mpi.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const gsb_mpi_plugin_t *plugin;
static char err[512];

/* dlopen `path`; on failure, note why when the file is there (a file that
 * is not there is the common case, said once by the caller). */
static void *open_at(const char *path, char *why, size_t whylen)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

    if (!h && access(path, F_OK) == 0 && !why[0])
        snprintf(why, whylen, ": %s", dlerror());
    return h;
}

/* The directory of the object this code is in (libgshmem.so, or the
 * program when linked statically), into dir. */
static int own_dir(char *dir, size_t len)
{
    Dl_info info;
    const char *slash;

    if (!dladdr((const void *)&gsb_mpi_ops, &info) || !info.dli_fname ||
        !(slash = strrchr(info.dli_fname, '/')) || (size_t)(slash - info.dli_fname) >= len)
        return -1;
    memcpy(dir, info.dli_fname, (size_t)(slash - info.dli_fname));
    dir[slash - info.dli_fname] = 0;
    return 0;
}

static int load(const char *name)
{
    char dir[PATH_MAX] = "?", path[PATH_MAX + 256], why[400] = "";
    gsb_mpi_entry_fn_t entry;
    void *h = NULL;

    if (strchr(name, '/')) {
        h = open_at(name, why, sizeof(why));
    } else {
        if (own_dir(dir, sizeof(dir)) == 0) {
            snprintf(path, sizeof(path), "%s/%s", dir, name);
            h = open_at(path, why, sizeof(why));
        }
        if (!h) {
            snprintf(path, sizeof(path), "%s/%s", GSHMEM_LIBDIR, name);
            h = open_at(path, why, sizeof(why));
        }
    }
    if (!h) {
        if (strchr(name, '/'))
            gsb_set_error("cannot load the MPI plugin %s%s", name, why[0] ? why : ": no such file");
        else if (why[0]) /* there, but not loadable: another MPI's, say */
            gsb_set_error("cannot load the MPI plugin %s from %s or %s%s", name, dir, GSHMEM_LIBDIR,
                          why);
        else
            gsb_set_error("cannot load the MPI plugin %s from %s or %s: no such file (gshmem "
                          "built without MPI: configure found no mpicc; or set "
                          "GSHMEM_BOOTSTRAP_MPI_PLUGIN)",
                          name, dir, GSHMEM_LIBDIR);
        return -ENOENT;
    }
    entry = (gsb_mpi_entry_fn_t)dlsym(h, GSB_MPI_PLUGIN_ENTRY);
    if (!entry || !(plugin = entry())) {
        gsb_set_error("the MPI plugin %s has no %s: it is not this gshmem's", name,
                      GSB_MPI_PLUGIN_ENTRY);
        dlclose(h);
        return -ENOENT;
    }
    return 0;
}

static int failed(void)
{
    gsb_set_error("%s", err);
    return -EIO;
}

/* Wait for the collective in flight, polling the plugin: at once in its
 * first milliseconds (a collective among a few PEs ends within them), then
 * every 200 us, since MPI moves only while it is tested. */
static int finish(const char *what)
{
    struct timespec nap = {0, 200000};
    gsb_wait_t w;
    int done = 0, rc, polls = 0;

    gsb_wait_begin(&w);
    for (;;) {
        if (plugin->test(&done, err, sizeof(err)) != 0)
            return failed();
        if (done)
            return 0;
        rc = gsb_wait_poll(&w, "mpi", what);
        if (rc)
            return rc;
        if (++polls < 1000)
            sched_yield();
        else
            nanosleep(&nap, NULL);
    }
}

static int mpi_init(const void *args, gsb_info_t *info)
{
    const gsb_mpi_args_t *a = args;
    int rc;

    if (!a || !a->mpi_comm) {
        gsb_set_error("no MPI communicator (attr->mpi_comm is NULL)");
        return -EINVAL;
    }
    if (!plugin && load(a->plugin) != 0)
        return -ENOENT;
    if (plugin->init(a->mpi_comm, err, sizeof(err)) != 0)
        return failed();
    rc = finish("every rank of the communicator to start (MPI_Comm_idup)");
    if (rc)
        return rc;
    return plugin->ranks(&info->rank, &info->size, err, sizeof(err)) != 0 ? failed() : 0;
}

static int mpi_allgather(const void *in, void *out, size_t len)
{
    if (plugin->iallgather(in, out, len, err, sizeof(err)) != 0)
        return failed();
    return finish("an allgather (MPI_Iallgather) over the communicator");
}

static int mpi_barrier(void)
{
    if (plugin->ibarrier(err, sizeof(err)) != 0)
        return failed();
    return finish("a barrier (MPI_Ibarrier) over the communicator");
}

static void mpi_abort(int status, const char *msg)
{
    (void)msg;
    if (plugin)
        plugin->abort(status);
    fflush(NULL);
    _exit(status);
}

static int mpi_finalize(void)
{
    return plugin->finalize(err, sizeof(err)) != 0 ? failed() : 0;
}

const gsb_ops_t gsb_mpi_ops = {
    .name = "mpi",
    .init = mpi_init,
    .allgather = mpi_allgather,
    .barrier = mpi_barrier,
    .abort = mpi_abort,
    .finalize = mpi_finalize,
};
