/*
 * tests/pe/topo_nic.c - the NIC placement chooses is in effect before the
 * network transport starts: on the synthetic 8-GPU, 8-NIC node
 * (HWLOC_XMLFILE=tests/topo/dgx8.xml), shmem_init leaves UCX_NET_DEVICES
 * naming the NIC beside each PE's GPU, a different one for each PE.
 *
 * The PEs run unbound (run-pe: --bind-to none), so they stand on this
 * machine's CPUs: on fewer than 32 those are all of socket 0 of the XML
 * (GPUs 0-3: the PEs take mlx5_0, mlx5_1, ...); on 32 or more a PE allowed
 * everywhere stands on its slice of the node (2 PEs: mlx5_0 and mlx5_4).
 * Over the network (GSHMEM_DISABLE_P2P=1) the XML's NICs do not exist, so
 * there GSHMEM_HCA=none must leave UCX_NET_DEVICES unset instead.
 */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "pe_test.h"

int main(void)
{
    const char *top = getenv("GSHMEM_TOP_SRCDIR");
    const char *p2p_off = getenv("GSHMEM_DISABLE_P2P");
    int net = p2p_off && strcmp(p2p_off, "0") != 0;
    char xml[4096], want_a[32], want_b[32];
    const char *got;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);

    snprintf(xml, sizeof(xml), "%s/tests/topo/dgx8.xml", top ? top : ".");
    setenv("HWLOC_XMLFILE", xml, 1);
    unsetenv("UCX_NET_DEVICES");
    if (net)
        setenv("GSHMEM_HCA", "none", 1);
    PT_START();
    got = getenv("UCX_NET_DEVICES");
    if (net) {
        PT_CHECK("shmem_init", got == NULL, "UCX_NET_DEVICES unset with GSHMEM_HCA=none");
        return pt_finish();
    }
    if (shmem_n_pes() > 4)
        return pt_skip("the XML's socket 0 has 4 NICs");
    /* The PEs of one host are node ranks 0..n-1 in PE order here. */
    snprintf(want_a, sizeof(want_a), "mlx5_%d:1", pt_me);
    snprintf(want_b, sizeof(want_b), "mlx5_%d:1", pt_me * 8 / shmem_n_pes());
    PT_CHECK("shmem_init",
             got && (!strcmp(got, want_a) || (cpus >= 32 && !strcmp(got, want_b))),
             "UCX_NET_DEVICES set to the NIC beside this PE's GPU");
    if (got && strcmp(got, want_a) && strcmp(got, want_b))
        fprintf(stderr, "PE %d: UCX_NET_DEVICES=%s, not %s\n", pt_me, got, want_a);
    return pt_finish();
}
