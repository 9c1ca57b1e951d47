/* src/topo/topo.h - this PE's placement (place.h), decided once at init
 * from the cores every PE of the node is bound to, then applied: the NIC
 * for the network transport (UCX_NET_DEVICES, gsi_topo_hca for a verbs
 * transport), the GPU for the device API, the cores of the proxy threads,
 * the NUMA node of the host heap.  Off (GSHMEM_TOPO=0) or without hwloc
 * every query answers "nothing chosen" and nothing is bound. */
#ifndef GSI_TOPO_TOPO_H
#define GSI_TOPO_TOPO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"

/* A binding as it travels in the cards: bit i of word i / 64 is CPU i. */
#define GSI_TOPO_CPU_WORDS 16
typedef struct gsi_topo_cpus {
    uint64_t word[GSI_TOPO_CPU_WORDS];
} gsi_topo_cpus_t;

typedef struct gsi_topo_args {
    int enabled;                                    /* GSHMEM_TOPO */
    int node_rank, n_node;                          /* this PE among the PEs of its host */
    const gsi_topo_cpus_t *cpus;                    /* [n_node]: each one's binding */
    const char *gpu, *hca, *proxy_cpus, *heap_numa; /* the override rows */
} gsi_topo_args_t;

/* The CPUs this thread may run on (sched_getaffinity). */
void gsi_topo_my_cpus(gsi_topo_cpus_t *out);

/* Decide this PE's placement and set UCX_NET_DEVICES to its NIC unless the
 * user set it.  Nothing found degrades to "none (why)"; only a bad override
 * fails (GSI_ERR_ENV, one sentence in err). */
gsi_status_t gsi_topo_init(const gsi_topo_args_t *args, char *err, size_t len);
void gsi_topo_fini(void);

/* Take a deferred decision now (topo.c): 1 when this PE is placed.  The
 * proxy threads' start calls it first, so that hwloc's load runs before
 * they do, not beside the first transfers (a p ping-pong over UCX was
 * 1.4-4x slower while a proxy thread loaded it). */
int gsi_topo_decide(void);
/* The NIC chosen for this PE: 1 and its name and port, or 0 (none). */
int gsi_topo_hca(char *name, size_t len, int *port);
/* The GPU chosen for this PE: 1 and its PCI bus id, or 0 (none). */
int gsi_topo_gpu_bus(char *bus, size_t len);
/* Bind the calling thread to the proxy cores (nothing when none). */
void gsi_topo_bind_proxy_thread(void);
/* Put [addr, addr + len) on the heap's NUMA node before its first touch. */
void gsi_topo_bind_heap(void *addr, size_t len);
/* The placement, lines after PREFIX (SHMEM_INFO). */
void gsi_topo_print(FILE *out, const char *prefix);

#endif
