/* gshmem-info --topology: the node's GPUs and NICs as hwloc sees them, and
 * the placement (src/topo/place.c, the same code shmem_init runs) of each of
 * N local PEs, PE r standing on its slice r of N of the cores (--bind core:
 * on the first core of that slice).  --xml FILE
 * reads a saved or synthetic topology instead of this node.  The overrides
 * (GSHMEM_GPU, GSHMEM_HCA, GSHMEM_PROXY_CPUS, GSHMEM_HEAP_NUMA) apply as at
 * init. */
#define _GNU_SOURCE
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/place.h"

#define TOPO_USAGE "usage: gshmem-info --topology [--xml FILE] [--local-pes N] [--bind slice|core]"

static const char *env_or(const char *name, const char *def)
{
    const char *v = getenv(name);

    return v && *v ? v : def;
}

static void list_devices(hwloc_topology_t t)
{
    hwloc_obj_t os = NULL;
    int n_gpu = 0, n_nic = 0;
    char *cpus;

    gsi_topo_gpu(t, 0, &n_gpu);
    printf("GPUs: %d%s\n", n_gpu, n_gpu ? "" : " (no NVIDIA PCI display or 3D controller)");
    for (int i = 0; i < n_gpu; i++) {
        hwloc_obj_t pci = gsi_topo_gpu(t, i, NULL);

        hwloc_bitmap_list_asprintf(&cpus, hwloc_get_non_io_ancestor_obj(t, pci)->cpuset);
        printf("  GPU %d: %04x:%02x:%02x.%01x, local CPUs %s\n", i, pci->attr->pcidev.domain,
               pci->attr->pcidev.bus, pci->attr->pcidev.dev, pci->attr->pcidev.func, cpus);
        free(cpus);
    }
    printf("NICs:");
    while ((os = hwloc_get_next_osdev(t, os))) {
        if (os->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS)
            continue;
        hwloc_bitmap_list_asprintf(&cpus, hwloc_get_non_io_ancestor_obj(t, os)->cpuset);
        printf("\n  %s, local CPUs %s", os->name, cpus);
        n_nic++;
        free(cpus);
    }
    printf("%s\n", n_nic ? "" : " none (no OpenFabrics device)");
}

/* PE r's binding: its slice r of n of the cores, or (core) the first core
 * of that slice, as a launcher binding each PE to one core gives. */
static void bind_pe(hwloc_topology_t t, int r, int n, int one_core, hwloc_bitmap_t out)
{
    gsi_topo_slice(t, r, n, out);
    if (one_core) {
        hwloc_obj_t core = hwloc_get_next_obj_covering_cpuset_by_type(t, out, HWLOC_OBJ_CORE, NULL);

        if (core)
            hwloc_bitmap_copy(out, core->cpuset);
    }
}

static int place_all(hwloc_topology_t t, int n, int one_core)
{
    gsi_place_env_t env = {.gpu = env_or("GSHMEM_GPU", "auto"),
                           .hca = env_or("GSHMEM_HCA", "auto"),
                           .proxy_cpus = env_or("GSHMEM_PROXY_CPUS", "auto"),
                           .heap_numa = env_or("GSHMEM_HEAP_NUMA", "auto")};
    hwloc_bitmap_t *bind = calloc((size_t)n, sizeof(*bind));
    gsi_place_t *p = calloc((size_t)n, sizeof(*p));
    char err[512], prefix[32], *cpus;
    int rc = 1;

    if (!bind || !p)
        goto out;
    for (int r = 0; r < n; r++) {
        bind[r] = hwloc_bitmap_alloc();
        bind_pe(t, r, n, one_core, bind[r]);
    }
    if (gsi_topo_place(t, n, (hwloc_const_bitmap_t *)bind, &env, p, err, sizeof(err)) != GSI_OK) {
        printf("gshmem: %s\n", err);
        goto out;
    }
    printf("placement of %d local PE%s (PE r bound to %s r of %d of the cores):\n", n,
           n > 1 ? "s" : "", one_core ? "the first core of slice" : "slice", n);
    for (int r = 0; r < n; r++) {
        hwloc_bitmap_list_asprintf(&cpus, bind[r]);
        printf("PE %d: bound to CPUs %s\n", r, cpus);
        free(cpus);
        snprintf(prefix, sizeof(prefix), "PE %d: ", r);
        gsi_topo_place_print(stdout, prefix, &p[r]);
    }
    gsi_topo_place_free(p, n);
    rc = 0;
out:
    for (int r = 0; bind && r < n; r++)
        hwloc_bitmap_free(bind[r]);
    free(bind);
    free(p);
    return rc;
}

int gshmem_info_topology(int argc, char **argv)
{
    const char *xml = NULL;
    hwloc_topology_t t;
    long n = 1;
    int rc, one_core = 0;

    for (int i = 2; i < argc; i++) {
        char *end = NULL;

        if (!strcmp(argv[i], "--xml") && i + 1 < argc) {
            xml = argv[++i];
        } else if (!strcmp(argv[i], "--local-pes") && i + 1 < argc) {
            n = strtol(argv[++i], &end, 10);
            if (!*argv[i] || *end || n < 1 || n > 4096) {
                fprintf(stderr, "gshmem-info: --local-pes '%s': give 1 to 4096; " TOPO_USAGE "\n",
                        argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--bind") && i + 1 < argc &&
                   (!strcmp(argv[i + 1], "slice") || !strcmp(argv[i + 1], "core"))) {
            one_core = !strcmp(argv[++i], "core");
        } else {
            fprintf(stderr, "gshmem-info: '%s'; " TOPO_USAGE "\n", argv[i]);
            return 2;
        }
    }
    if (hwloc_topology_init(&t) != 0)
        return 1;
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (xml && hwloc_topology_set_xml(t, xml) != 0) {
        fprintf(stderr, "gshmem-info: --xml %s: hwloc cannot read it\n", xml);
        hwloc_topology_destroy(t);
        return 1;
    }
    if (hwloc_topology_load(t) != 0) {
        fprintf(stderr, "gshmem-info: hwloc cannot load %s\n", xml ? xml : "this node's topology");
        hwloc_topology_destroy(t);
        return 1;
    }
    printf("topology: %s (hwloc %s): %d PUs, %d cores, %d NUMA nodes\n", xml ? xml : "this node",
           HWLOC_VERSION, hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU),
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE),
           hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE));
    list_devices(t);
    if (!strcmp(env_or("GSHMEM_TOPO", "1"), "0"))
        printf("placement off (GSHMEM_TOPO=0)\n");
    rc = !strcmp(env_or("GSHMEM_TOPO", "1"), "0") ? 0 : place_all(t, (int)n, one_core);
    hwloc_topology_destroy(t);
    return fflush(stdout) == 0 ? rc : 1;
}
