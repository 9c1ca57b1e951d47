/* Unit tests of the placement rules (src/topo/place.c) on the synthetic
 * nodes of tests/topo/ (gen-xml.py says what each holds): for 1, 2, 4 and 8
 * local PEs, each bound to one core (the first of its slice of the node),
 * each PE's GPU, NIC, proxy CPUs and heap NUMA node are the ones the
 * topology implies; then the overrides and a node with nothing to choose. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo/place.h"

static const gsi_place_env_t autos = {"auto", "auto", "auto", "auto"};

static hwloc_topology_t load(const char *name)
{
    const char *top = getenv("GSHMEM_TOP_SRCDIR");
    char path[4096];
    hwloc_topology_t t;

    snprintf(path, sizeof(path), "%s/tests/topo/%s", top ? top : ".", name);
    cr_assert_eq(hwloc_topology_init(&t), 0);
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    cr_assert_eq(hwloc_topology_set_xml(t, path), 0, "cannot read %s", path);
    cr_assert_eq(hwloc_topology_load(t), 0);
    return t;
}

/* n PEs, PE r bound to the first core of slice r of n. */
static gsi_status_t place(hwloc_topology_t t, int n, const gsi_place_env_t *env,
                          gsi_place_t *out, char *err, size_t len)
{
    hwloc_bitmap_t bind[8];
    gsi_status_t s;

    for (int r = 0; r < n; r++) {
        hwloc_obj_t core;

        bind[r] = hwloc_bitmap_alloc();
        gsi_topo_slice(t, r, n, bind[r]);
        core = hwloc_get_next_obj_covering_cpuset_by_type(t, bind[r], HWLOC_OBJ_CORE, NULL);
        hwloc_bitmap_copy(bind[r], core->cpuset);
    }
    s = gsi_topo_place(t, n, (hwloc_const_bitmap_t *)bind, env, out, err, len);
    for (int r = 0; r < n; r++)
        hwloc_bitmap_free(bind[r]);
    return s;
}

typedef struct expect {
    int gpu;
    const char *nic;
    int port;
    const char *proxy;
    int numa;
} expect_t;

static void check(const char *xml, int n, const expect_t *want)
{
    hwloc_topology_t t = load(xml);
    gsi_place_t p[8];
    char err[256] = "";

    cr_assert_eq(place(t, n, &autos, p, err, sizeof(err)), GSI_OK, "%s", err);
    for (int r = 0; r < n; r++) {
        char *cpus = NULL;

        hwloc_bitmap_list_asprintf(&cpus, p[r].proxy_cpus);
        cr_expect_eq(p[r].gpu, want[r].gpu, "%s, %d PEs: PE %d's GPU is %d, not %d (%s)", xml,
                     n, r, p[r].gpu, want[r].gpu, p[r].gpu_why);
        cr_expect_str_eq(p[r].nic, want[r].nic,
                         "%s, %d PEs: PE %d's NIC is '%s', not '%s' (%s)", xml, n, r, p[r].nic,
                         want[r].nic, p[r].nic_why);
        cr_expect_eq(p[r].nic_port, want[r].port, "%s, %d PEs: PE %d's NIC port is %d, not %d",
                     xml, n, r, p[r].nic_port, want[r].port);
        cr_expect_str_eq(cpus, want[r].proxy,
                         "%s, %d PEs: PE %d's proxy CPUs are %s, not %s (%s)", xml, n, r, cpus,
                         want[r].proxy, p[r].proxy_why);
        cr_expect_eq(p[r].numa, want[r].numa,
                     "%s, %d PEs: PE %d's heap NUMA node is %d, not %d (%s)", xml, n, r,
                     p[r].numa, want[r].numa, p[r].numa_why);
        free(cpus);
    }
    gsi_topo_place_free(p, n);
    hwloc_topology_destroy(t);
}

/* dgx8: socket s holds GPUs 4s..4s+3 and, beside GPU k on its switch,
 * mlx5_k; NUMA node s.  The proxies get the socket's unbound cores. */
Test(topo_dgx8, one_pe_takes_gpu0_its_nic_and_the_rest_of_socket0)
{
    const expect_t want[] = {{0, "mlx5_0", 1, "1-15", 0}};

    check("dgx8.xml", 1, want);
}

Test(topo_dgx8, two_pes_take_one_socket_each)
{
    const expect_t want[] = {{0, "mlx5_0", 1, "1-15", 0}, {4, "mlx5_4", 1, "17-31", 1}};

    check("dgx8.xml", 2, want);
}

Test(topo_dgx8, four_pes_spread_over_their_sockets_gpus)
{
    const expect_t want[] = {{0, "mlx5_0", 1, "1-7", 0},
                             {1, "mlx5_1", 1, "9-15", 0},
                             {4, "mlx5_4", 1, "17-23", 1},
                             {5, "mlx5_5", 1, "25-31", 1}};

    check("dgx8.xml", 4, want);
}

Test(topo_dgx8, eight_pes_take_a_gpu_and_its_switchs_nic_each)
{
    const expect_t want[] = {{0, "mlx5_0", 1, "1-3", 0},   {1, "mlx5_1", 1, "5-7", 0},
                             {2, "mlx5_2", 1, "9-11", 0},  {3, "mlx5_3", 1, "13-15", 0},
                             {4, "mlx5_4", 1, "17-19", 1}, {5, "mlx5_5", 1, "21-23", 1},
                             {6, "mlx5_6", 1, "25-27", 1}, {7, "mlx5_7", 1, "29-31", 1}};

    check("dgx8.xml", 8, want);
}

/* pcie4: one socket, one NUMA node (the heap is not bound), 8 cores of 2
 * PUs (c, c+8); 4 GPUs (GPU 3 a VGA-class one) and one NIC whose port 2 is
 * the active one. */
Test(topo_pcie4, one_pe_takes_gpu0_the_active_port_and_every_other_core)
{
    const expect_t want[] = {{0, "mlx5_0", 2, "1-7,9-15", -1}};

    check("pcie4.xml", 1, want);
}

Test(topo_pcie4, two_pes_split_the_free_cores)
{
    const expect_t want[] = {{0, "mlx5_0", 2, "1-3,9-11", -1},
                             {1, "mlx5_0", 2, "5-7,13-15", -1}};

    check("pcie4.xml", 2, want);
}

Test(topo_pcie4, four_pes_take_a_gpu_and_a_free_core_each)
{
    const expect_t want[] = {{0, "mlx5_0", 2, "1,9", -1},
                             {1, "mlx5_0", 2, "3,11", -1},
                             {2, "mlx5_0", 2, "5,13", -1},
                             {3, "mlx5_0", 2, "7,15", -1}};

    check("pcie4.xml", 4, want);
}

Test(topo_pcie4, eight_pes_share_the_gpus_and_keep_proxies_on_their_own_cores)
{
    const expect_t want[] = {{0, "mlx5_0", 2, "0,8", -1},  {1, "mlx5_0", 2, "1,9", -1},
                             {2, "mlx5_0", 2, "2,10", -1}, {3, "mlx5_0", 2, "3,11", -1},
                             {0, "mlx5_0", 2, "4,12", -1}, {1, "mlx5_0", 2, "5,13", -1},
                             {2, "mlx5_0", 2, "6,14", -1}, {3, "mlx5_0", 2, "7,15", -1}};

    check("pcie4.xml", 8, want);
}

Test(topo_env, per_pe_overrides_win_and_say_so)
{
    hwloc_topology_t t = load("dgx8.xml");
    const gsi_place_env_t env = {"7/0000:11:00.0", "mlx5_3:1/none", "2-3", "1/none"};
    gsi_place_t p[2];
    char err[256] = "", *cpus = NULL;

    cr_assert_eq(place(t, 2, &env, p, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_eq(p[0].gpu, 7);
    cr_expect_eq(p[1].gpu, 0, "a PCI bus id names GPU 0, got %d", p[1].gpu);
    cr_expect_str_eq(p[0].nic, "mlx5_3");
    cr_expect_str_eq(p[1].nic, "", "GSHMEM_HCA=none: got '%s'", p[1].nic);
    hwloc_bitmap_list_asprintf(&cpus, p[1].proxy_cpus);
    cr_expect_str_eq(cpus, "2-3");
    cr_expect_eq(p[0].numa, 1);
    cr_expect_eq(p[1].numa, -1);
    cr_expect(strstr(p[0].gpu_why, "GSHMEM_GPU=7") != NULL, "why: %s", p[0].gpu_why);
    free(cpus);
    gsi_topo_place_free(p, 2);
    hwloc_topology_destroy(t);
}

Test(topo_env, without_a_gpu_the_nic_is_the_one_nearest_the_cores)
{
    hwloc_topology_t t = load("dgx8.xml");
    const gsi_place_env_t env = {"none", "auto", "auto", "auto"};
    gsi_place_t p[2];
    char err[256] = "";

    cr_assert_eq(place(t, 2, &env, p, err, sizeof(err)), GSI_OK, "%s", err);
    cr_expect_eq(p[1].gpu, -1);
    cr_expect_str_eq(p[0].nic, "mlx5_0", "%s", p[0].nic_why);
    cr_expect_str_eq(p[1].nic, "mlx5_4", "%s", p[1].nic_why);
    cr_expect_eq(p[1].numa, 1, "%s", p[1].numa_why);
    gsi_topo_place_free(p, 2);
    hwloc_topology_destroy(t);
}

static void refused(const gsi_place_env_t *env, const char *line)
{
    hwloc_topology_t t = load("dgx8.xml");
    gsi_place_t p[4];
    char err[256] = "";

    cr_expect_eq(place(t, 4, env, p, err, sizeof(err)), GSI_ERR_ENV);
    cr_expect(strstr(err, line) != NULL, "the line '%s' lacks '%s'", err, line);
    hwloc_topology_destroy(t);
}

Test(topo_env, bad_overrides_are_refused_with_one_line)
{
    refused(&(gsi_place_env_t){"8", "auto", "auto", "auto"}, "GSHMEM_GPU=8: no such GPU");
    refused(&(gsi_place_env_t){"0/1", "auto", "auto", "auto"},
            "GSHMEM_GPU=0/1: 2 entries for 4 PEs");
    refused(&(gsi_place_env_t){"auto", "mlx5_0:x", "auto", "auto"}, "GSHMEM_HCA=mlx5_0:x");
    refused(&(gsi_place_env_t){"auto", "auto", "40-41", "auto"}, "GSHMEM_PROXY_CPUS=40-41");
    refused(&(gsi_place_env_t){"auto", "auto", "auto", "2"}, "GSHMEM_HEAP_NUMA=2");
}

Test(topo_none, a_node_without_gpus_nics_or_numa_choice_places_nothing)
{
    hwloc_topology_t t;
    hwloc_bitmap_t bind = hwloc_bitmap_alloc();
    gsi_place_t p;
    char err[256] = "", *cpus = NULL;

    cr_assert_eq(hwloc_topology_init(&t), 0);
    cr_assert_eq(hwloc_topology_set_synthetic(t, "pack:1 core:2 pu:1"), 0);
    cr_assert_eq(hwloc_topology_load(t), 0);
    gsi_topo_slice(t, 0, 1, bind);
    cr_assert_eq(gsi_topo_place(t, 1, (hwloc_const_bitmap_t *)&bind, &autos, &p, err,
                                sizeof(err)),
                 GSI_OK, "%s", err);
    hwloc_bitmap_list_asprintf(&cpus, p.proxy_cpus);
    cr_expect_eq(p.gpu, -1);
    cr_expect(strstr(p.gpu_why, "none (no NVIDIA GPU") != NULL, "%s", p.gpu_why);
    cr_expect_str_eq(p.nic, "");
    cr_expect(strstr(p.nic_why, "none (no OpenFabrics") != NULL, "%s", p.nic_why);
    cr_expect_eq(p.numa, -1);
    cr_expect_str_eq(cpus, "0-1", "no free core: the PE's own (%s)", p.proxy_why);
    free(cpus);
    gsi_topo_place_free(&p, 1);
    hwloc_bitmap_free(bind);
    hwloc_topology_destroy(t);
}
