/* src/topo/place.h - where each PE of a node should run its work: its GPU,
 * its NIC, the cores of its proxy threads and the NUMA node of its host
 * heap, decided from an hwloc topology and the cores each PE is bound to.
 *
 * A pure function of its inputs (no PE state, no environment, no binding
 * done here), so the unit tests feed it synthetic XML topologies and
 * gshmem-info prints what it decides for any number of local PEs; topo.c
 * applies its answer for this PE at init. */
#ifndef GSI_TOPO_PLACE_H
#define GSI_TOPO_PLACE_H

#include <stddef.h>
#include <stdio.h>

#include <hwloc.h>

#include "base/status.h"

#define GSI_TOPO_WHY 192

/* The overrides, one string each as the environment gives them: "auto", a
 * value for every PE of the node, or one value per local PE separated by
 * '/' ("0/2/4/6").  See README's environment table for each one's forms. */
typedef struct gsi_place_env {
    const char *gpu;        /* GSHMEM_GPU: auto, none, a GPU index or PCI bus id */
    const char *hca;        /* GSHMEM_HCA: auto, none, <device>[:<port>] */
    const char *proxy_cpus; /* GSHMEM_PROXY_CPUS: auto or a cpu list (0-3,8) */
    const char *heap_numa;  /* GSHMEM_HEAP_NUMA: auto, none or a NUMA node number */
} gsi_place_env_t;

typedef struct gsi_place {
    int gpu;          /* index in gsi_topo_gpus' order (PCI order), -1: none */
    char gpu_bus[16]; /* its PCI bus id, "0000:07:00.0"; "" without one */
    char gpu_why[GSI_TOPO_WHY];
    char nic[64]; /* OpenFabrics device, "mlx5_0"; "" none */
    int nic_port; /* its port, 1-based; 0 without a NIC */
    char nic_why[GSI_TOPO_WHY];
    hwloc_bitmap_t proxy_cpus; /* never NULL after gsi_topo_place; empty: not bound */
    char proxy_why[GSI_TOPO_WHY];
    int numa; /* NUMA node (OS index) the heap's pages go to, -1: not bound */
    char numa_why[GSI_TOPO_WHY];
} gsi_place_t;

/* Decide for the n_local PEs of a node whose bindings are binding[0..n-1]
 * (in node-rank order).  out[n_local] is filled on success and must be
 * released with gsi_topo_place_free; a bad override gives GSI_ERR_ENV and
 * one sentence in err. */
gsi_status_t gsi_topo_place(hwloc_topology_t topo, int n_local, hwloc_const_bitmap_t *binding,
                            const gsi_place_env_t *env, gsi_place_t *out, char *err,
                            size_t err_len);
void gsi_topo_place_free(gsi_place_t *p, int n);

/* The GPUs hwloc sees, NVIDIA PCI display and 3D controllers in PCI order
 * (n: how many; returns the i-th's PCI object or NULL). */
hwloc_obj_t gsi_topo_gpu(hwloc_topology_t topo, int i, int *n);

/* Node rank r's slice of n of the cores: what a launcher that binds each PE
 * to its share of the node gives, and the stand-in for an unbound PE. */
void gsi_topo_slice(hwloc_topology_t topo, int r, int n, hwloc_bitmap_t out);

/* Four lines, each after PREFIX: "GPU ...", "NIC ...", "proxy cores ...",
 * "heap NUMA node ...", each with why it was chosen. */
void gsi_topo_place_print(FILE *out, const char *prefix, const gsi_place_t *p);

#endif
