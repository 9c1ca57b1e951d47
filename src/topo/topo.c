/* src/topo/topo.c - this PE's placement: decide for every PE of the node
 * from the bindings the cards carried (place.c), keep this PE's answer and
 * apply it.  hwloc reads HWLOC_XMLFILE itself, so a test can hand it a
 * synthetic node.
 *
 * hwloc's load is most of what init would cost (30-60 ms with its PCI
 * discovery, several ms without), and a node with no GPU, no RDMA device
 * and one NUMA node has only the proxy threads' cores to decide.  So a
 * scan of sysfs comes first (a few directory reads): where it finds any
 * of those, or an override row or HWLOC_XMLFILE asks for more, the whole
 * topology is loaded at init as before; where it finds none, the decision
 * waits until something needs it (a proxy thread binding itself, the
 * SHMEM_INFO lines) and then loads the topology without I/O objects.  Both
 * ways give the same placement: the scan looks for exactly what place.c
 * would find (NVIDIA display or 3D PCI functions, OpenFabrics devices).
 *
 * An unbound PE (allowed on every CPU) stands on its slice of the node's
 * cores, so unbound PEs still spread over the GPUs and NICs instead of all
 * taking the first. */
#define _GNU_SOURCE
#include "config.h"
#include "topo/topo.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>

#include "base/log.h"
#include "topo/place.h"

static struct {
    int decided;
    int bind; /* the topology is this machine's: its CPUs and nodes exist */
    gsi_place_t mine;
    char why[GSI_TOPO_WHY]; /* why nothing was decided */
    /* Deferred (nothing to place but the proxy cores): the arguments kept
     * until the first query that needs the decision. */
    int deferred;
    gsi_topo_args_t args;
    gsi_topo_cpus_t *cpus;
    pthread_mutex_t lock;
} topo = {.lock = PTHREAD_MUTEX_INITIALIZER};

void gsi_topo_my_cpus(gsi_topo_cpus_t *out)
{
    cpu_set_t set;

    memset(out, 0, sizeof(*out));
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    for (int i = 0; i < CPU_SETSIZE && i < 64 * GSI_TOPO_CPU_WORDS; i++)
        if (CPU_ISSET(i, &set))
            out->word[i / 64] |= 1ULL << (i % 64);
}

static void to_bitmap(const gsi_topo_cpus_t *cpus, hwloc_bitmap_t out)
{
    hwloc_bitmap_zero(out);
    for (int i = 0; i < 64 * GSI_TOPO_CPU_WORDS; i++)
        if (cpus->word[i / 64] >> (i % 64) & 1)
            hwloc_bitmap_set(out, (unsigned)i);
}

/* The bindings as place.c takes them: unbound PEs on their slice. */
static gsi_status_t bindings(hwloc_topology_t t, const gsi_topo_args_t *a, hwloc_bitmap_t *out)
{
    hwloc_const_bitmap_t all = hwloc_topology_get_topology_cpuset(t);

    for (int r = 0; r < a->n_node; r++) {
        out[r] = hwloc_bitmap_alloc();
        if (!out[r])
            return GSI_ERR_NOMEM;
        to_bitmap(&a->cpus[r], out[r]);
        hwloc_bitmap_and(out[r], out[r], all);
        if (hwloc_bitmap_isequal(out[r], all) || hwloc_bitmap_iszero(out[r]))
            gsi_topo_slice(t, r, a->n_node, out[r]);
    }
    return GSI_OK;
}

/* Whether sysfs shows anything that makes the whole topology worth its
 * load: an NVIDIA GPU (display or 3D controller), an RDMA device, or more
 * than one NUMA node.  Unreadable counts as "yes": hwloc then decides. */
static int node_has_io(void)
{
    DIR *d;
    struct dirent *e;
    int found = 0, numa = 0;

    if ((d = opendir("/sys/class/infiniband"))) {
        while (!found && (e = readdir(d)))
            found = e->d_name[0] != '.';
        closedir(d);
    }
    if (!found && (d = opendir("/sys/devices/system/node"))) {
        while ((e = readdir(d)))
            numa += !strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9';
        closedir(d);
        found = numa > 1;
    }
    if (found)
        return 1;
    if (!(d = opendir("/sys/bus/pci/devices")))
        return 1;
    while (!found && (e = readdir(d))) {
        char path[300], vendor[16] = "", cls[16] = "";
        FILE *f;

        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", e->d_name);
        if ((f = fopen(path, "r"))) {
            if (!fgets(vendor, sizeof(vendor), f))
                vendor[0] = 0;
            fclose(f);
        }
        if (strncmp(vendor, "0x10de", 6))
            continue;
        snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/class", e->d_name);
        if ((f = fopen(path, "r"))) {
            if (!fgets(cls, sizeof(cls), f))
                cls[0] = 0;
            fclose(f);
        }
        found = !strncmp(cls, "0x0300", 6) || !strncmp(cls, "0x0302", 6);
    }
    closedir(d);
    return found;
}

static int is_auto(const char *v)
{
    return !v || !strcasecmp(v, "auto");
}

/* Load the topology (with its I/O objects when io) and decide. */
static gsi_status_t decide(const gsi_topo_args_t *a, int io, char *err, size_t len)
{
    gsi_place_env_t env = {.gpu = a->gpu,
                           .hca = a->hca,
                           .proxy_cpus = a->proxy_cpus,
                           .heap_numa = a->heap_numa};
    hwloc_topology_t t;
    hwloc_bitmap_t *bind;
    gsi_place_t *all;
    gsi_status_t status = GSI_ERR_NOMEM;

    if (hwloc_topology_init(&t) != 0) {
        snprintf(topo.why, sizeof(topo.why), "none (hwloc_topology_init failed)");
        return GSI_OK;
    }
    hwloc_topology_set_io_types_filter(t, io ? HWLOC_TYPE_FILTER_KEEP_IMPORTANT
                                             : HWLOC_TYPE_FILTER_KEEP_NONE);
    if (hwloc_topology_load(t) != 0) {
        snprintf(topo.why, sizeof(topo.why), "none (hwloc cannot load this node's topology)");
        hwloc_topology_destroy(t);
        return GSI_OK;
    }
    bind = calloc((size_t)a->n_node, sizeof(*bind));
    all = calloc((size_t)a->n_node, sizeof(*all));
    if (!bind || !all)
        goto err_alloc;
    status = bindings(t, a, bind);
    if (status == GSI_OK)
        status = gsi_topo_place(t, a->n_node, (hwloc_const_bitmap_t *)bind, &env, all, err, len);
    if (status == GSI_OK) {
        topo.mine = all[a->node_rank];
        all[a->node_rank].proxy_cpus = NULL; /* kept in topo.mine */
        gsi_topo_place_free(all, a->n_node);
        /* A topology from HWLOC_XMLFILE names CPUs this machine may lack:
         * report its placement, bind nothing. */
        topo.bind = hwloc_topology_is_thissystem(t);
        /* UCX reads it when the transport starts, right after this. */
        if (topo.mine.nic[0] && !getenv("UCX_NET_DEVICES")) {
            char dev[80];

            snprintf(dev, sizeof(dev), "%s:%d", topo.mine.nic, topo.mine.nic_port);
            setenv("UCX_NET_DEVICES", dev, 0);
        }
        __atomic_store_n(&topo.decided, 1, __ATOMIC_RELEASE);
    }
err_alloc:
    for (int r = 0; bind && r < a->n_node; r++)
        hwloc_bitmap_free(bind[r]);
    free(bind);
    free(all);
    hwloc_topology_destroy(t);
    return status;
}

/* GSHMEM_TOPO=0 loads no topology, but a GSHMEM_HCA device the node does
 * not have is still refused: each entry's device is looked up in sysfs. */
static gsi_status_t check_hca_sysfs(const char *hca, char *err, size_t len)
{
    const char *p = hca;

    while (p && *p) {
        size_t entry = strcspn(p, "/"), name = strcspn(p, ":/");
        char path[128];

        if (!(entry == 4 && !strncasecmp(p, "auto", 4)) &&
            !(entry == 4 && !strncasecmp(p, "none", 4))) {
            snprintf(path, sizeof(path), "/sys/class/infiniband/%.*s", (int)name, p);
            if (name == 0 || name > 63 || memchr(p, '.', name) || access(path, F_OK) != 0) {
                snprintf(err, len,
                         "GSHMEM_HCA=%s: no such RDMA device on this node (%.*s is not in "
                         "/sys/class/infiniband); give auto, none or <device>[:<port>]",
                         hca, (int)name, p);
                return GSI_ERR_ENV;
            }
        }
        p = p[entry] ? p + entry + 1 : NULL;
    }
    return GSI_OK;
}

gsi_status_t gsi_topo_init(const gsi_topo_args_t *a, char *err, size_t len)
{
    topo.decided = 0;
    topo.deferred = 0;
    if (!a->enabled) {
        snprintf(topo.why, sizeof(topo.why), "off (GSHMEM_TOPO=0)");
        return is_auto(a->hca) ? GSI_OK : check_hca_sysfs(a->hca, err, len);
    }
    if (getenv("HWLOC_XMLFILE") || !is_auto(a->gpu) || !is_auto(a->hca) ||
        !is_auto(a->proxy_cpus) || !is_auto(a->heap_numa) || node_has_io())
        return decide(a, 1, err, len);
    /* Nothing here but cores: decide when it is asked for. */
    topo.cpus = malloc((size_t)a->n_node * sizeof(*topo.cpus));
    if (!topo.cpus)
        return GSI_ERR_NOMEM;
    memcpy(topo.cpus, a->cpus, (size_t)a->n_node * sizeof(*topo.cpus));
    topo.args = *a;
    topo.args.cpus = topo.cpus;
    topo.deferred = 1;
    snprintf(topo.why, sizeof(topo.why), "none (the deferred decision failed)");
    return GSI_OK;
}

/* A deferred decision, taken once by whichever thread asks first.  Every
 * row is "auto" there, so it cannot fail but for memory, which leaves it
 * undecided ("none"). */
int gsi_topo_decide(void)
{
    char err[256];

    if (__atomic_load_n(&topo.decided, __ATOMIC_ACQUIRE))
        return 1;
    if (!__atomic_load_n(&topo.deferred, __ATOMIC_ACQUIRE))
        return 0;
    pthread_mutex_lock(&topo.lock);
    if (topo.deferred) {
        if (decide(&topo.args, 0, err, sizeof(err)) != GSI_OK)
            GSI_WARN("placement: %s", err);
        __atomic_store_n(&topo.deferred, 0, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&topo.lock);
    return topo.decided;
}

void gsi_topo_fini(void)
{
    if (topo.decided)
        gsi_topo_place_free(&topo.mine, 1);
    topo.decided = 0;
    topo.deferred = 0;
    free(topo.cpus);
    topo.cpus = NULL;
}

int gsi_topo_hca(char *name, size_t len, int *port)
{
    if (!topo.decided || !topo.mine.nic[0])
        return 0;
    snprintf(name, len, "%s", topo.mine.nic);
    *port = topo.mine.nic_port;
    return 1;
}

int gsi_topo_gpu_bus(char *bus, size_t len)
{
    if (!topo.decided || topo.mine.gpu < 0)
        return 0;
    snprintf(bus, len, "%s", topo.mine.gpu_bus);
    return 1;
}

void gsi_topo_bind_proxy_thread(void)
{
    cpu_set_t set;
    int rc;

    if (!gsi_topo_decide() || !topo.bind || hwloc_bitmap_iszero(topo.mine.proxy_cpus))
        return;
    CPU_ZERO(&set);
    for (int i = hwloc_bitmap_first(topo.mine.proxy_cpus); i >= 0 && i < CPU_SETSIZE;
         i = hwloc_bitmap_next(topo.mine.proxy_cpus, i))
        CPU_SET(i, &set);
    rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    if (rc != 0)
        GSI_WARN("cannot bind a proxy thread to its cores: %s", strerror(rc));
}

void gsi_topo_bind_heap(void *addr, size_t len)
{
    unsigned long mask[GSI_TOPO_CPU_WORDS] = {0};
    const unsigned bits = 8 * sizeof(unsigned long);

    if (!topo.decided || !topo.bind || topo.mine.numa < 0)
        return;
    if (topo.mine.numa >= (int)(bits * GSI_TOPO_CPU_WORDS)) {
        GSI_WARN("NUMA node %d is past the %u this build binds to; the heap stays unbound",
                 topo.mine.numa, bits * GSI_TOPO_CPU_WORDS);
        return;
    }
    mask[topo.mine.numa / bits] = 1UL << (topo.mine.numa % bits);
    /* The heap is a shared memfd: the policy lands on the file's pages, so
     * it holds whichever PE touches a page first. */
    if (syscall(SYS_mbind, addr, len, MPOL_BIND, mask, bits * GSI_TOPO_CPU_WORDS + 1, 0) != 0)
        GSI_WARN("cannot put the heap's pages on NUMA node %d: %s", topo.mine.numa,
                 strerror(errno));
}

void gsi_topo_print(FILE *out, const char *prefix)
{
    if (!gsi_topo_decide()) {
        fprintf(out, "%s%s\n", prefix, topo.why);
        return;
    }
    gsi_topo_place_print(out, prefix, &topo.mine);
    if (!topo.bind)
        fprintf(out, "%snothing bound: the topology is not this machine's (HWLOC_XMLFILE)\n",
                prefix);
}
