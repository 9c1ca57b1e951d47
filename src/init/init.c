/* src/init/init.c - bring the PE up and down: the one place that runs every
 * layer, in order, so that no layer below calls up into another.
 *
 * Init order matters: the static data segment is moved onto shared memory
 * first, while this is the only thread (the PMIx client starts threads);
 * then the bootstrap, the heap, the peers (one allgather of every PE's
 * card, the mapping of node peers' regions, the network for the others),
 * the predefined teams, a barrier over those mappings, and last the device
 * API's state.  Finalize runs it backwards. */
#include "config.h"
#include "init/init.h"

#include <stdio.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/copy.h"
#include "base/log.h"
#include "bootstrap/bootstrap.h"
#include "bootstrap/uid.h"
#include "coll/ctx.h"
#include "coll/sync.h"
#include "coll/team.h"
#include "core/heap.h"
#include "core/heap_keep.h"
#include "core/liveness.h"
#include "core/localbuf.h"
#include "core/symreg.h"
#include "core/pe.h"
#include "core/peers.h"
#include "core/static_data.h"
#include "gpu/device.h"
#include "net/transport.h"
#include "topo/topo.h"

static unsigned default_spin(int n_local)
{
    /* More PEs than cores: a spinning waiter holds the core its peer needs. */
    if (n_local > gsi_pe.n_cores)
        return 16;
    return 20000;
}

static void print_banner(void)
{
    if (gsi_pe.my_pe != 0)
        return;
    if (gsi_pe.env.version)
        fprintf(stderr, "gshmem: version %s (OpenSHMEM 1.6)\n", PACKAGE_VERSION);
    if (gsi_pe.env.info) {
        fprintf(stderr, "gshmem: %d PEs, bootstrap %s, transport p2p+%s\n", gsi_pe.n_pes,
                gsi_pe.boot->name, gsi_pe.net->name);
        gsi_env_print(stderr, &gsi_pe.env);
    }
}

/* SHMEM_INFO: every PE says where it runs its work, as each decides its own. */
static void print_placement(void)
{
    char prefix[64];

    if (!gsi_pe.env.info)
        return;
    snprintf(prefix, sizeof(prefix), "gshmem: PE %d: placement: ", gsi_pe.my_pe);
    gsi_topo_print(stderr, prefix);
}

static void load_env(const char *fn)
{
    char err[512];

    if (gsi_env_load(&gsi_pe.env, NULL, err, sizeof(err)) != GSI_OK)
        gsi_fatal(fn, "%s", err);
    gsi_log_level = gsi_pe.env.debug ? GSI_LOG_DEBUG : GSI_LOG_WARN;
}

/* A bootstrap collective that waits past GSHMEM_WAIT_WARN says so once. */
static void boot_still_waiting(const char *bootstrap, long long seconds, const char *what)
{
    GSI_WARN("bootstrap %s: still waiting after %lld s for %s", bootstrap, seconds, what);
}

static void start_bootstrap(const char *fn, const gsb_ops_t *boot, const void *args)
{
    gsb_uid_args_t uid_args;
    gsb_info_t info;

    gsi_pe.boot = boot ? boot : gsb_select(gsi_pe.env.bootstrap);
    if (!gsi_pe.boot)
        gsi_fatal(fn, "GSHMEM_BOOTSTRAP: %s", gsb_error());
    /* GSHMEM_BOOTSTRAP=uid without gshmemx_init_attr: the id from the env. */
    if (!boot && gsi_pe.boot == &gsb_uid_ops) {
        if (gsb_uid_args_from_env(gsi_pe.env.uid, gsi_pe.env.uid_rank, gsi_pe.env.uid_size,
                                  gsi_pe.env.uid_timeout, &uid_args) != 0)
            gsi_fatal(fn, "%s", gsb_error());
        args = &uid_args;
    }
    gsb_set_wait_limits(gsi_pe.env.wait_timeout, gsi_pe.env.wait_warn, boot_still_waiting);
    if (gsi_pe.boot->init(args, &info) != 0)
        gsi_fatal(fn, "bootstrap %s: %s", gsi_pe.boot->name, gsb_error());
    gsi_pe.my_pe = info.rank;
    gsi_pe.n_pes = info.size;
    gsi_log_set_pe(info.rank);
    __atomic_store_n(&gsi_pe.stage, 1, __ATOMIC_RELEASE);
}

/* SHMEM_DEBUG: how long each step of init took (where a slow init goes). */
static void step_done(const char *what, uint64_t *t)
{
    uint64_t now = gsi_now_ns();

    GSI_DEBUG("init: %s: %.3f ms", what, (double)(now - *t) / 1e6);
    *t = now;
}

void gsi_init(const char *fn, int requested_thread_level, const gsb_ops_t *boot,
              const void *boot_args)
{
    uint64_t t;

    if (gsi_pe.init_count++ > 0)
        return; /* OpenSHMEM 1.6: later calls are matched by shmem_finalize */
    t = gsi_now_ns();

    gsi_log_set_exit(gsi_global_exit);
    load_env(fn);
    gsi_copy_detect();
    gsi_pe.n_regions = 1;
    if (gsi_pe.env.static_symmetric) {
        if (gsi_static_data_share(&gsi_pe.region[GSI_REGION_DATA]) != GSI_OK)
            gsi_fatal(fn, "cannot make static data symmetric (GSHMEM_STATIC_SYMMETRIC=0 "
                          "turns this off)");
        gsi_pe.n_regions = 2;
    }
    step_done("environment, static data", &t);
    start_bootstrap(fn, boot, boot_args);
    step_done("bootstrap", &t);
    if (gsi_heap_create(fn, gsi_pe.env.symmetric_size, GSI_SYNC_AREA_SIZE) != GSI_OK)
        gsi_fatal(fn, "cannot reserve the symmetric heap of %zu bytes (SHMEM_SYMMETRIC_SIZE)",
                  gsi_pe.env.symmetric_size);
    gsi_pe.thread_level = requested_thread_level;
    step_done("heap", &t);
    gsi_peers_connect(fn);
    step_done("peers (mapping, transport)", &t);
    /* Nothing has touched the heap's pages yet: they go where it was placed. */
    gsi_topo_bind_heap((void *)gsi_pe.region[GSI_REGION_HEAP].base,
                       gsi_pe.region[GSI_REGION_HEAP].size);
    gsi_pe.n_cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (gsi_pe.n_cores < 1)
        gsi_pe.n_cores = 1;
    gsi_pe.spin = gsi_pe.env.wait_spin >= 0 ? (unsigned)gsi_pe.env.wait_spin
                                            : default_spin(gsi_pe.n_local);
    gsi_team_init_predefined();
    gsi_live_init(&gsi_pe.sync->live);
    step_done("placement, teams", &t);
    /* Every PE has mapped its peers once it has passed this barrier. */
    gsi_barrier_world(fn, 0);
    step_done("barrier", &t);
    print_banner();
    print_placement();
    GSI_DEBUG("up: %d PEs, %d on this node, heap %zu bytes at %p", gsi_pe.n_pes, gsi_pe.n_local,
              gsi_pe.env.symmetric_size, (void *)gsi_pe.region[0].base);
    gsi_device_init(fn);
    step_done("device API", &t);
    __atomic_store_n(&gsi_pe.stage, 2, __ATOMIC_RELEASE);
}

void gsi_finalize(const char *fn)
{
    gsi_check_init(fn);
    if (--gsi_pe.init_count > 0)
        return;
    __atomic_store_n(&gsi_pe.stage, 0, __ATOMIC_RELEASE);
    gsi_device_fini(fn);
    gsi_barrier_finalize(fn);
    gsi_live_fini();
    gsi_ctx_fini();
    gsi_team_fini_predefined();
    gsi_symreg_remove_all(); /* what the program left registered */
    gsi_localbuf_remove_all();
    gsi_pe.net->finalize();
    gsi_pe.net_progress = NULL;
    gsi_peers_disconnect();
    gsi_topo_fini();
    gsi_heap_destroy();
    gsi_heap_hold_disarm(); /* both heaps are down: a hold took them or nothing */
    if (gsi_pe.boot->finalize() != 0)
        GSI_WARN("%s: bootstrap %s: %s", fn, gsi_pe.boot->name, gsb_error());
    gsi_pe.n_pes = 0;
    gsi_pe.my_pe = -1;
    gsi_log_set_pe(-1);
}
