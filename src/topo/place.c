/* src/topo/place.c - the placement rules (place.h), one function per choice:
 *
 * - GPU: among the GPUs whose local cores overlap the PE's binding the most,
 *   the one the fewest earlier PEs of the node took (so PEs bound to one
 *   socket spread over that socket's GPUs), lowest index on a tie;
 * - NIC: the OpenFabrics device fewest PCI hops from the GPU (same switch
 *   first), else the one whose local cores overlap the binding the most,
 *   again the least taken;
 * - NUMA node: the GPU's, else the one holding most of the binding;
 * - proxy cores: that NUMA node's cores that no PE of the node is bound
 *   to, split between the PEs that chose the node.
 *
 * Every choice keeps a sentence saying why, and "none (why)" when the
 * topology has nothing to choose from. */
#define _GNU_SOURCE
#include "config.h"
#include "topo/place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_HOPS 64

hwloc_obj_t gsi_topo_gpu(hwloc_topology_t topo, int i, int *n)
{
    hwloc_obj_t pci = NULL, found = NULL;
    int k = 0;

    while ((pci = hwloc_get_next_pcidev(topo, pci))) {
        unsigned cls = pci->attr->pcidev.class_id;

        if (pci->attr->pcidev.vendor_id != 0x10de || (cls != 0x0300 && cls != 0x0302))
            continue;
        if (k == i)
            found = pci;
        k++;
    }
    if (n)
        *n = k;
    return found;
}

/* The i-th OpenFabrics OS device (mlx5_0, ...), NULL past the last. */
static hwloc_obj_t nic_at(hwloc_topology_t topo, int i, int *n)
{
    hwloc_obj_t os = NULL, found = NULL;
    int k = 0;

    while ((os = hwloc_get_next_osdev(topo, os))) {
        if (os->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS)
            continue;
        if (k == i)
            found = os;
        k++;
    }
    if (n)
        *n = k;
    return found;
}

static hwloc_const_cpuset_t local_cpus(hwloc_topology_t topo, hwloc_obj_t io)
{
    return hwloc_get_non_io_ancestor_obj(topo, io)->cpuset;
}

static void bus_id(hwloc_obj_t pci, char *out, size_t len)
{
    snprintf(out, len, "%04x:%02x:%02x.%01x", pci->attr->pcidev.domain, pci->attr->pcidev.bus,
             pci->attr->pcidev.dev, pci->attr->pcidev.func);
}

/* Parent steps from a to b through their nearest common ancestor. */
static int hops(hwloc_obj_t a, hwloc_obj_t b)
{
    hwloc_obj_t up[MAX_HOPS];
    int na = 0, nb = 0;

    for (hwloc_obj_t o = a; o && na < MAX_HOPS; o = o->parent)
        up[na++] = o;
    for (hwloc_obj_t o = b; o; o = o->parent, nb++)
        for (int i = 0; i < na; i++)
            if (up[i] == o)
                return i + nb;
    return 2 * MAX_HOPS;
}

static int overlap(hwloc_const_bitmap_t a, hwloc_const_bitmap_t b)
{
    hwloc_bitmap_t x = hwloc_bitmap_alloc();
    int w;

    hwloc_bitmap_and(x, a, b);
    w = hwloc_bitmap_weight(x);
    hwloc_bitmap_free(x);
    return w;
}

/* Entry `rank` of a '/'-separated override list: one entry applies to every
 * PE.  NULL (and a sentence in err) when the list is too short. */
static char *entry(const char *name, const char *list, int rank, int n_local, char *err, size_t len)
{
    int count = 1;
    const char *p = list;

    for (const char *c = list; *c; c++)
        count += *c == '/';
    if (count == 1)
        return strdup(list);
    if (count < n_local) {
        snprintf(err, len, "%s=%s: %d entries for %d PEs on this node (give one, or one per PE)",
                 name, list, count, n_local);
        return NULL;
    }
    for (int i = 0; i < rank; i++)
        p = strchr(p, '/') + 1;
    return strndup(p, strcspn(p, "/"));
}

static int least_used(const int *score, const int *used, int n)
{
    int best = -1;

    for (int i = 0; i < n; i++)
        if (best < 0 || score[i] > score[best] || (score[i] == score[best] && used[i] < used[best]))
            best = i;
    return best;
}

static gsi_status_t choose_gpu(hwloc_topology_t topo, hwloc_const_bitmap_t bind, const char *want,
                               int *used, gsi_place_t *p, char *err, size_t len)
{
    int n = 0, ties = 0, *score;
    char *end;

    gsi_topo_gpu(topo, 0, &n);
    p->gpu = -1;
    if (!strcasecmp(want, "none")) {
        snprintf(p->gpu_why, sizeof(p->gpu_why), "none (GSHMEM_GPU=none)");
        return GSI_OK;
    }
    if (strcasecmp(want, "auto")) {
        long i = strtol(want, &end, 10);

        if (*want && !*end) {
            p->gpu = i >= 0 && i < n ? (int)i : -2;
        } else {
            for (int k = 0; k < n; k++) {
                char bus[16];

                bus_id(gsi_topo_gpu(topo, k, NULL), bus, sizeof(bus));
                if (!strcasecmp(bus, want) || !strcasecmp(bus + 5, want))
                    p->gpu = k;
            }
            if (p->gpu < 0)
                p->gpu = -2;
        }
        if (p->gpu == -2) {
            snprintf(err, len,
                     "GSHMEM_GPU=%s: no such GPU (the node has %d GPUs; give auto, none, "
                     "an index from gshmem-info --topology or a PCI bus id)",
                     want, n);
            return GSI_ERR_ENV;
        }
        snprintf(p->gpu_why, sizeof(p->gpu_why), "GSHMEM_GPU=%s", want);
    } else if (n == 0) {
        snprintf(p->gpu_why, sizeof(p->gpu_why), "none (no NVIDIA GPU in the topology)");
        return GSI_OK;
    } else {
        score = calloc((size_t)n, sizeof(int));
        if (!score)
            return GSI_ERR_NOMEM;
        for (int k = 0; k < n; k++)
            score[k] = overlap(local_cpus(topo, gsi_topo_gpu(topo, k, NULL)), bind);
        p->gpu = least_used(score, used, n);
        for (int k = 0; k < n; k++)
            ties += score[k] == score[p->gpu];
        snprintf(p->gpu_why, sizeof(p->gpu_why),
                 "%s: %d of its %d bound PUs are local to it; the least used of %d so near",
                 score[p->gpu] ? "nearest the PE's cores" : "no GPU near the PE's cores",
                 score[p->gpu], hwloc_bitmap_weight(bind), ties);
        free(score);
    }
    used[p->gpu]++;
    bus_id(gsi_topo_gpu(topo, p->gpu, NULL), p->gpu_bus, sizeof(p->gpu_bus));
    return GSI_OK;
}

/* The first active port of an OpenFabrics device (Port<k>State 4), else 1. */
static int active_port(hwloc_obj_t os)
{
    for (int k = 1; k <= 8; k++) {
        char key[32];
        const char *state;

        snprintf(key, sizeof(key), "Port%dState", k);
        state = hwloc_obj_get_info_by_name(os, key);
        if (state && atoi(state) == 4)
            return k;
    }
    return 1;
}

/* The topology has an OpenFabrics device of that name. */
static int nic_named(hwloc_topology_t topo, const char *name)
{
    hwloc_obj_t os;

    for (int k = 0; (os = nic_at(topo, k, NULL)) != NULL; k++)
        if (os->name && !strcmp(os->name, name))
            return 1;
    return 0;
}

static gsi_status_t choose_nic(hwloc_topology_t topo, hwloc_const_bitmap_t bind, const char *want,
                               int *used, gsi_place_t *p, char *err, size_t len)
{
    int n = 0, ties = 0, *score, best;
    hwloc_obj_t gpu = p->gpu >= 0 ? gsi_topo_gpu(topo, p->gpu, NULL) : NULL;

    nic_at(topo, 0, &n);
    p->nic[0] = '\0';
    p->nic_port = 0;
    if (!strcasecmp(want, "none")) {
        snprintf(p->nic_why, sizeof(p->nic_why), "none (GSHMEM_HCA=none)");
        return GSI_OK;
    }
    if (strcasecmp(want, "auto")) {
        size_t name = strcspn(want, ":");
        char *end = NULL;

        if (name == 0 || name >= sizeof(p->nic)) {
            snprintf(err, len, "GSHMEM_HCA=%s: give auto, none or <device>[:<port>] (mlx5_0:1)",
                     want);
            return GSI_ERR_ENV;
        }
        memcpy(p->nic, want, name);
        p->nic[name] = '\0';
        p->nic_port = 1;
        if (want[name]) {
            long port = strtol(want + name + 1, &end, 10);

            if (!want[name + 1] || *end || port < 1 || port > 255) {
                snprintf(err, len, "GSHMEM_HCA=%s: the port must be a number from 1 to 255", want);
                return GSI_ERR_ENV;
            }
            p->nic_port = (int)port;
        }
        /* A name the node does not have is refused here, whatever the
         * transport: UCX took it silently when every peer was on UCX. */
        if (!nic_named(topo, p->nic)) {
            char have[128] = "";

            for (int k = 0; k < n; k++) {
                size_t used = strlen(have);

                snprintf(have + used, sizeof(have) - used, "%s%s", k ? ", " : "",
                         nic_at(topo, k, NULL)->name ? nic_at(topo, k, NULL)->name : "?");
            }
            snprintf(err, len,
                     "GSHMEM_HCA=%s: no such RDMA device on this node (it has %s); give "
                     "auto, none or <device>[:<port>]",
                     want, n ? have : "none");
            return GSI_ERR_ENV;
        }
        snprintf(p->nic_why, sizeof(p->nic_why), "GSHMEM_HCA=%s", want);
        return GSI_OK;
    }
    if (n == 0) {
        snprintf(p->nic_why, sizeof(p->nic_why), "none (no OpenFabrics device in the topology)");
        return GSI_OK;
    }
    score = calloc((size_t)n, sizeof(int));
    if (!score)
        return GSI_ERR_NOMEM;
    for (int k = 0; k < n; k++) {
        hwloc_obj_t os = nic_at(topo, k, NULL);

        score[k] = gpu ? -hops(gpu, os) : overlap(local_cpus(topo, os), bind);
    }
    best = least_used(score, used, n);
    for (int k = 0; k < n; k++)
        ties += score[k] == score[best];
    used[best]++;
    {
        hwloc_obj_t os = nic_at(topo, best, NULL);

        snprintf(p->nic, sizeof(p->nic), "%s", os->name);
        p->nic_port = active_port(os);
        if (gpu)
            snprintf(p->nic_why, sizeof(p->nic_why),
                     "nearest GPU %d: %d PCI hops; the least used of %d so near", p->gpu,
                     -score[best], ties);
        else
            snprintf(p->nic_why, sizeof(p->nic_why),
                     "no GPU; nearest the PE's cores: %d PUs local to it; the least used of %d "
                     "so near",
                     score[best], ties);
    }
    free(score);
    return GSI_OK;
}

/* The NUMA node (OS index) the heap and proxies should use, before the
 * override: the GPU's, else the one with most of the binding. */
static int natural_numa(hwloc_topology_t topo, hwloc_const_bitmap_t bind, int gpu, char *why,
                        size_t len)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE), best = -1, score = -1;

    if (gpu >= 0) {
        hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(topo, gsi_topo_gpu(topo, gpu, NULL));
        int node = hwloc_bitmap_first(anc->nodeset);

        if (node >= 0) {
            snprintf(why, len, "GPU %d's", gpu);
            return node;
        }
    }
    for (int i = 0; i < n; i++) {
        hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, i);
        int w = overlap(node->cpuset, bind);

        if (w > score) {
            score = w;
            best = (int)node->os_index;
        }
    }
    snprintf(why, len, "holds %d of the PE's %d bound PUs", score, hwloc_bitmap_weight(bind));
    return best;
}

static gsi_status_t choose_numa(hwloc_topology_t topo, hwloc_const_bitmap_t bind, const char *want,
                                int natural, const char *natural_why, gsi_place_t *p, char *err,
                                size_t len)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    char *end;

    p->numa = -1;
    if (!strcasecmp(want, "none")) {
        snprintf(p->numa_why, sizeof(p->numa_why), "none (GSHMEM_HEAP_NUMA=none)");
        return GSI_OK;
    }
    if (strcasecmp(want, "auto")) {
        long node = strtol(want, &end, 10);

        if (!*want || *end || node < 0 || node > 1 << 20 ||
            !hwloc_get_numanode_obj_by_os_index(topo, (unsigned)node)) {
            snprintf(err, len,
                     "GSHMEM_HEAP_NUMA=%s: no such NUMA node (give auto, none or one "
                     "of the %d of this node)",
                     want, n);
            return GSI_ERR_ENV;
        }
        p->numa = (int)node;
        snprintf(p->numa_why, sizeof(p->numa_why), "GSHMEM_HEAP_NUMA=%s", want);
    } else if (n < 2) {
        snprintf(p->numa_why, sizeof(p->numa_why), "none (one NUMA node: nothing to choose)");
    } else {
        p->numa = natural;
        snprintf(p->numa_why, sizeof(p->numa_why), "%s", natural_why);
    }
    return GSI_OK;
}

/* The free cores of NUMA node `node` (none of the node's PEs bound there),
 * slice `k` of `of`: a PE's share among those that chose the node. */
static void free_share(hwloc_topology_t topo, int node, hwloc_const_bitmap_t taken, int k, int of,
                       hwloc_bitmap_t out)
{
    hwloc_obj_t numa = hwloc_get_numanode_obj_by_os_index(topo, (unsigned)node);
    int n_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE), n_free = 0, i = 0;
    hwloc_bitmap_t free_cpus = hwloc_bitmap_alloc();

    hwloc_bitmap_zero(out);
    if (numa)
        hwloc_bitmap_andnot(free_cpus, numa->cpuset, taken);
    for (int c = 0; c < n_cores; c++)
        n_free += hwloc_bitmap_isincluded(hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, c)->cpuset,
                                          free_cpus);
    for (int c = 0; c < n_cores && n_free; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, c);

        if (!hwloc_bitmap_isincluded(core->cpuset, free_cpus))
            continue;
        /* More PEs than free cores: they share them round robin. */
        if (n_free >= of ? i * of / n_free == k : i == k % n_free)
            hwloc_bitmap_or(out, out, core->cpuset);
        i++;
    }
    hwloc_bitmap_free(free_cpus);
}

static gsi_status_t choose_proxy(hwloc_topology_t topo, hwloc_const_bitmap_t bind,
                                 hwloc_const_bitmap_t taken, const char *want, int node, int k,
                                 int of, gsi_place_t *p, char *err, size_t len)
{
    p->proxy_cpus = hwloc_bitmap_alloc();
    if (!p->proxy_cpus)
        return GSI_ERR_NOMEM;
    if (strcasecmp(want, "auto")) {
        if (hwloc_bitmap_list_sscanf(p->proxy_cpus, want) != 0 ||
            hwloc_bitmap_iszero(p->proxy_cpus) ||
            !hwloc_bitmap_isincluded(p->proxy_cpus, hwloc_topology_get_complete_cpuset(topo))) {
            snprintf(err, len,
                     "GSHMEM_PROXY_CPUS=%s: give auto or a list of this node's cores "
                     "(0-3,8)",
                     want);
            return GSI_ERR_ENV;
        }
        snprintf(p->proxy_why, sizeof(p->proxy_why), "GSHMEM_PROXY_CPUS=%s", want);
        return GSI_OK;
    }
    free_share(topo, node, taken, k, of, p->proxy_cpus);
    if (!hwloc_bitmap_iszero(p->proxy_cpus)) {
        snprintf(p->proxy_why, sizeof(p->proxy_why),
                 "NUMA node %d's cores no PE of the node is bound to, share %d of %d", node, k + 1,
                 of);
    } else {
        hwloc_bitmap_copy(p->proxy_cpus, bind);
        snprintf(p->proxy_why, sizeof(p->proxy_why),
                 "the PE's own cores: NUMA node %d has none free of the node's PEs", node);
    }
    return GSI_OK;
}

gsi_status_t gsi_topo_place(hwloc_topology_t topo, int n_local, hwloc_const_bitmap_t *binding,
                            const gsi_place_env_t *env, gsi_place_t *out, char *err, size_t err_len)
{
    int n_gpu = 0, n_nic = 0, *gpu_used, *nic_used, *node = NULL;
    hwloc_bitmap_t taken = hwloc_bitmap_alloc();
    gsi_status_t status = GSI_ERR_NOMEM;
    char why[GSI_TOPO_WHY];

    gsi_topo_gpu(topo, 0, &n_gpu);
    nic_at(topo, 0, &n_nic);
    gpu_used = calloc((size_t)n_gpu + 1, sizeof(int));
    nic_used = calloc((size_t)n_nic + 1, sizeof(int));
    node = calloc((size_t)n_local, sizeof(int));
    memset(out, 0, sizeof(*out) * (size_t)n_local);
    if (!taken || !gpu_used || !nic_used || !node)
        goto err_alloc;
    for (int r = 0; r < n_local; r++)
        hwloc_bitmap_or(taken, taken, binding[r]);
    for (int r = 0; r < n_local; r++) {
        char *gpu = entry("GSHMEM_GPU", env->gpu, r, n_local, err, err_len);
        char *hca = gpu ? entry("GSHMEM_HCA", env->hca, r, n_local, err, err_len) : NULL;
        char *numa = hca ? entry("GSHMEM_HEAP_NUMA", env->heap_numa, r, n_local, err, err_len)
                         : NULL;
        int natural;

        status = numa ? GSI_OK : GSI_ERR_ENV;
        if (status == GSI_OK)
            status = choose_gpu(topo, binding[r], gpu, gpu_used, &out[r], err, err_len);
        if (status == GSI_OK)
            status = choose_nic(topo, binding[r], hca, nic_used, &out[r], err, err_len);
        if (status == GSI_OK) {
            natural = natural_numa(topo, binding[r], out[r].gpu, why, sizeof(why));
            status = choose_numa(topo, binding[r], numa, natural, why, &out[r], err, err_len);
            node[r] = out[r].numa >= 0 ? out[r].numa : natural;
        }
        free(gpu);
        free(hca);
        free(numa);
        if (status != GSI_OK)
            goto err_place;
    }
    for (int r = 0; r < n_local; r++) {
        char *cpus = entry("GSHMEM_PROXY_CPUS", env->proxy_cpus, r, n_local, err, err_len);
        int k = 0, of = 0;

        for (int q = 0; q < n_local; q++) {
            k += q < r && node[q] == node[r];
            of += node[q] == node[r];
        }
        status = cpus ? choose_proxy(topo, binding[r], taken, cpus, node[r], k, of, &out[r], err,
                                     err_len)
                      : GSI_ERR_ENV;
        free(cpus);
        if (status != GSI_OK)
            goto err_place;
    }
    free(node);
    free(nic_used);
    free(gpu_used);
    hwloc_bitmap_free(taken);
    return GSI_OK;

err_place:
    gsi_topo_place_free(out, n_local);
err_alloc:
    free(node);
    free(nic_used);
    free(gpu_used);
    hwloc_bitmap_free(taken);
    return status;
}

void gsi_topo_place_free(gsi_place_t *p, int n)
{
    for (int i = 0; i < n; i++) {
        hwloc_bitmap_free(p[i].proxy_cpus);
        p[i].proxy_cpus = NULL;
    }
}

void gsi_topo_slice(hwloc_topology_t topo, int r, int n, hwloc_bitmap_t out)
{
    int n_cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);

    hwloc_bitmap_zero(out);
    for (int c = 0; c < n_cores; c++)
        if (n_cores >= n ? c * n / n_cores == r : c == r % n_cores)
            hwloc_bitmap_or(out, out, hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, c)->cpuset);
    if (n_cores == 0)
        hwloc_bitmap_copy(out, hwloc_topology_get_topology_cpuset(topo));
}

void gsi_topo_place_print(FILE *out, const char *prefix, const gsi_place_t *p)
{
    char *cpus = NULL;

    if (p->proxy_cpus)
        hwloc_bitmap_list_asprintf(&cpus, p->proxy_cpus);
    if (p->gpu >= 0)
        fprintf(out, "%sGPU %d (%s): %s\n", prefix, p->gpu, p->gpu_bus, p->gpu_why);
    else
        fprintf(out, "%sGPU %s\n", prefix, p->gpu_why);
    if (p->nic[0])
        fprintf(out, "%sNIC %s:%d: %s\n", prefix, p->nic, p->nic_port, p->nic_why);
    else
        fprintf(out, "%sNIC %s\n", prefix, p->nic_why);
    fprintf(out, "%sproxy CPUs %s: %s\n", prefix, cpus && *cpus ? cpus : "any", p->proxy_why);
    if (p->numa >= 0)
        fprintf(out, "%sheap NUMA node %d: %s\n", prefix, p->numa, p->numa_why);
    else
        fprintf(out, "%sheap NUMA node %s\n", prefix, p->numa_why);
    free(cpus);
}
