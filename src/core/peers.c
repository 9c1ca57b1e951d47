/* src/core/peers.c - reach every other PE: one allgather of every PE's
 * "card" (host, pid, regions), a check that all agree on the layout, the
 * mapping of node peers' regions (P2P), and the network transport for the
 * others. */
#define _GNU_SOURCE
#include "config.h"
#include "core/peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/memfd.h"
#include "bootstrap/bootstrap.h"
#include "core/pe.h"
#include "net/transport.h"
#include "topo/topo.h"
#include "net/verbs/verbs_dev.h"

/* What every PE publishes about itself at init. */
typedef struct gsi_card {
    uint64_t host_hash;
    int32_t pid;
    int32_t n_regions;
    int32_t p2p; /* maps the memory of PEs on its host (GSHMEM_DISABLE_P2P unset) */
    int32_t fd[GSI_REGION_MAX];
    uint64_t size[GSI_REGION_MAX];
    uint64_t base[GSI_REGION_MAX];
    gsi_topo_cpus_t cpus; /* where it is bound: the placement of the node's PEs */
} gsi_card_t;

static uint64_t fnv1a(uint64_t h, const char *text)
{
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    return h;
}

/* Two PEs share memory when they run on one kernel (same boot id) in one
 * network namespace: PEs in separate namespaces, or containers, are other
 * hosts to each other, so tests in namespaces cross a real interface. */
static uint64_t host_hash(void)
{
    char text[256] = "";
    uint64_t h = 1469598103934665603ULL;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    struct stat ns;

    if (f) {
        if (fgets(text, sizeof(text), f))
            h = fnv1a(h, text);
        fclose(f);
    } else {
        gethostname(text, sizeof(text) - 1);
        h = fnv1a(h, text);
    }
    if (stat("/proc/self/ns/net", &ns) == 0) {
        snprintf(text, sizeof(text), "netns:%lu:%lu", (unsigned long)ns.st_dev,
                 (unsigned long)ns.st_ino);
        h = fnv1a(h, text);
    }
    return h;
}

static void check_layout(const char *fn, const gsi_card_t *mine, const gsi_card_t *c, int pe)
{
    if (c->n_regions != mine->n_regions)
        gsi_fatal(fn,
                  "PE %d shares %d symmetric regions, this PE %d "
                  "(set GSHMEM_STATIC_SYMMETRIC alike on every PE)",
                  pe, c->n_regions, mine->n_regions);
    for (int r = 0; r < gsi_pe.n_regions; r++)
        if (c->size[r] != mine->size[r])
            gsi_fatal(fn, "PE %d has a %s of %llu bytes, this PE %llu (%s)", pe,
                      r == GSI_REGION_HEAP ? "symmetric heap" : "static data segment",
                      (unsigned long long)c->size[r], (unsigned long long)mine->size[r],
                      r == GSI_REGION_HEAP ? "set SHMEM_SYMMETRIC_SIZE alike on every PE"
                                           : "every PE must run the same program");
}

/* Map the regions of a peer on this host (P2P). */
static void map_peer(const char *fn, const gsi_card_t *c, int pe)
{
    for (int r = 0; r < gsi_pe.n_regions; r++) {
        void *map;

        if (pe == gsi_pe.my_pe) {
            gsi_pe.region[r].peer[pe] = gsi_pe.region[r].base;
            continue;
        }
        if (gsi_memfd_map_peer(c->pid, c->fd[r], c->size[r], &map) != GSI_OK)
            gsi_fatal(fn, "cannot map the memory of PE %d (pid %d) on this node", pe, (int)c->pid);
        gsi_pe.region[r].peer[pe] = (uintptr_t)map;
    }
}

/* GSHMEM_TRANSPORT, checked on every run (also where no peer needs it). */
static void check_transport_name(const char *fn)
{
    const char *want = gsi_pe.env.transport;

    if (strcmp(want, "auto") && strcmp(want, "ucx") && strcmp(want, "verbs") &&
        strcmp(want, "node"))
        gsi_fatal(fn, "GSHMEM_TRANSPORT=%s: expected auto, ucx, verbs or node", want);
}

/* The RDMA device[:port] the verbs transport opens: the placement's NIC
 * (src/topo, which resolves GSHMEM_HCA's per-PE form), else GSHMEM_HCA as
 * given when it names one device, else "auto" (the first active port). */
static const char *verbs_hca(char *buf, size_t len)
{
    const char *hca = gsi_pe.env.hca;
    char name[64];
    int port = 0;

    if (gsi_topo_hca(name, sizeof(name), &port)) {
        snprintf(buf, len, "%s:%d", name, port);
        return buf;
    }
    if (!hca || strchr(hca, '/') || !strcasecmp(hca, "none"))
        return "auto";
    return hca;
}

/* Which transport reaches the network peers.  auto: verbs when every PE
 * has an active port on hca (verbs_hca; one vote each through the
 * allgather; every PE with a network peer gets here, and either all PEs
 * have one or none), else UCX.  Returns NULL where the build has none. */
static const gst_ops_t *choose_network(const char *fn, const char *hca)
{
    const char *want = gsi_pe.env.transport;

    if (strcmp(want, "node") == 0)
        return &gst_node_ops;
    if (strcmp(want, "verbs") == 0) {
#ifdef GSHMEM_HAVE_VERBS
        return &gst_verbs_ops;
#else
        gsi_fatal(fn, "GSHMEM_TRANSPORT=verbs: this build has no verbs transport (install "
                      "libibverbs-dev and rebuild)");
#endif
    }
    if (strcmp(want, "ucx") == 0) {
#ifdef GSHMEM_HAVE_UCX
        return &gst_ucx_ops;
#else
        gsi_fatal(fn, "GSHMEM_TRANSPORT=ucx: this build has no UCX (install libucx-dev and "
                      "rebuild)");
#endif
    }
#ifdef GSHMEM_HAVE_VERBS
    {
        int vote = gst_verbs_usable(hca), *votes, all = 1;

        votes = calloc((size_t)gsi_pe.n_pes, sizeof(int));
        if (!votes)
            gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
        if (gsi_pe.boot->allgather(&vote, votes, sizeof(vote)) != 0)
            gsi_fatal(fn, "GSHMEM_TRANSPORT=auto: the exchange of RDMA devices failed");
        for (int pe = 0; pe < gsi_pe.n_pes; pe++)
            all = all && votes[pe];
        free(votes);
        if (all)
            return &gst_verbs_ops;
    }
#else
    (void)hca;
#endif
#ifdef GSHMEM_HAVE_UCX
    return &gst_ucx_ops;
#else
    return NULL;
#endif
}

/* Start the network transport for the peers P2P does not reach. */
static void start_network(const char *fn, const gsi_card_t *cards, const char *net_peer,
                          int private_regions)
{
    void *base[GSI_REGION_MAX];
    size_t size[GSI_REGION_MAX];
    uint64_t *peer_base;
    char err[512] = "", hca[80], *same_host;
    int *peer_pid, *peer_fd;
    gst_init_args_t args;

    peer_base = calloc((size_t)gsi_pe.n_pes * (size_t)gsi_pe.n_regions, sizeof(*peer_base));
    peer_fd = calloc((size_t)gsi_pe.n_pes * (size_t)gsi_pe.n_regions, sizeof(*peer_fd));
    peer_pid = calloc((size_t)gsi_pe.n_pes, sizeof(*peer_pid));
    same_host = calloc((size_t)gsi_pe.n_pes, 1);
    if (!peer_base || !peer_fd || !peer_pid || !same_host)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
    for (int pe = 0; pe < gsi_pe.n_pes; pe++) {
        for (int r = 0; r < gsi_pe.n_regions; r++) {
            peer_base[pe * gsi_pe.n_regions + r] = cards[pe].base[r];
            peer_fd[pe * gsi_pe.n_regions + r] = cards[pe].fd[r];
        }
        peer_pid[pe] = cards[pe].pid;
        same_host[pe] = cards[pe].host_hash == cards[gsi_pe.my_pe].host_hash;
    }
    for (int r = 0; r < gsi_pe.n_regions; r++) {
        base[r] = (void *)gsi_pe.region[r].base;
        size[r] = gsi_pe.region[r].size;
    }
    args = (gst_init_args_t){.my_pe = gsi_pe.my_pe,
                             .n_pes = gsi_pe.n_pes,
                             .n_regions = gsi_pe.n_regions,
                             .base = base,
                             .size = size,
                             .peer_base = peer_base,
                             .net_peer = net_peer,
                             .private_regions = private_regions,
                             .thread_multiple = gsi_pe.thread_level == SHMEM_THREAD_LEVEL_MULTIPLE,
                             .progress_thread = (int)gsi_pe.env.progress_thread,
                             .am_rma = (int)gsi_pe.env.ucx_am,
                             .allgather = gsi_pe.boot->allgather,
                             .hca = verbs_hca(hca, sizeof(hca)),
                             .wait_timeout = (int)gsi_pe.env.wait_timeout,
                             .same_host = same_host,
                             .peer_pid = peer_pid,
                             .peer_fd = peer_fd};
    gsi_pe.net = choose_network(fn, args.hca);
    for (int pe = 0; !gsi_pe.net && pe < gsi_pe.n_pes; pe++)
        if (net_peer[pe])
            gsi_fatal(fn,
                      "PE %d is on another host (or GSHMEM_DISABLE_P2P is set) and this "
                      "build has no network transport (install libucx-dev and rebuild)",
                      pe);
    if (gsi_pe.net->init(&args, err, sizeof(err)) != GSI_OK)
        gsi_fatal(fn, "transport %s: %s", gsi_pe.net->name, err);
    gsi_pe.net_progress = gsi_pe.net->progress;
    gsi_pe.amo_via_net = gsi_pe.net->caps &&
                         (gsi_pe.net->caps(GST_MEM_HOST, err, sizeof(err)) & GST_CAP_AMO_ALL_PES);
    free(peer_base);
    free(peer_fd);
    free(peer_pid);
    free(same_host);
}

/* Decide where this PE's GPU, NIC, proxy threads and heap go, from the
 * bindings of the PEs of its host; before the transport starts, which
 * reads the NIC. */
static void place(const char *fn, const gsi_card_t *cards)
{
    gsi_topo_cpus_t *cpus = calloc((size_t)gsi_pe.n_node, sizeof(*cpus));
    gsi_topo_args_t args = {.enabled = (int)gsi_pe.env.topo,
                            .n_node = gsi_pe.n_node,
                            .cpus = cpus,
                            .gpu = gsi_pe.env.gpu,
                            .hca = gsi_pe.env.hca,
                            .proxy_cpus = gsi_pe.env.proxy_cpus,
                            .heap_numa = gsi_pe.env.heap_numa};
    char err[512];

    if (!cpus)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_node);
    for (int i = 0; i < gsi_pe.n_node; i++) {
        cpus[i] = cards[gsi_pe.node_pes[i]].cpus;
        if (gsi_pe.node_pes[i] == gsi_pe.my_pe)
            args.node_rank = i;
    }
    if (gsi_topo_init(&args, err, sizeof(err)) != GSI_OK)
        gsi_fatal(fn, "%s", err);
    free(cpus);
}

/* Check that every PE agrees on the layout; map the peers of this host,
 * reach the others through the network. */
static void connect_peers(const char *fn, const gsi_card_t *cards)
{
    const gsi_card_t *mine = &cards[gsi_pe.my_pe];
    int n = gsi_pe.n_pes, n_net = 0, private_regions = 1;
    char *net_peer;

    gsi_pe.local_pes = calloc((size_t)n, sizeof(int));
    gsi_pe.node_pes = calloc((size_t)n, sizeof(int));
    net_peer = calloc((size_t)n, 1);
    if (!gsi_pe.local_pes || !gsi_pe.node_pes || !net_peer)
        gsi_fatal(fn, "out of memory for %d PEs", n);
    for (int r = 0; r < gsi_pe.n_regions; r++) {
        gsi_pe.region[r].peer = calloc((size_t)n, sizeof(uintptr_t));
        if (!gsi_pe.region[r].peer)
            gsi_fatal(fn, "out of memory for %d PEs", n);
    }
    gsi_pe.n_local = 0;
    gsi_pe.n_node = 0;
    for (int pe = 0; pe < n; pe++) {
        check_layout(fn, mine, &cards[pe], pe);
        if (cards[pe].host_hash == mine->host_hash)
            gsi_pe.node_pes[gsi_pe.n_node++] = pe;
        if (pe != gsi_pe.my_pe && cards[pe].host_hash == mine->host_hash && cards[pe].p2p)
            private_regions = 0; /* that PE maps this one's memory */
        if (pe == gsi_pe.my_pe ||
            (cards[pe].host_hash == mine->host_hash && !gsi_pe.env.disable_p2p)) {
            gsi_pe.local_pes[gsi_pe.n_local++] = pe;
            map_peer(fn, &cards[pe], pe);
        } else {
            net_peer[pe] = 1;
            n_net++;
        }
    }
    place(fn, cards);
    gsi_pe.net = &gst_none_ops;
    gsi_pe.net_progress = NULL;
    check_transport_name(fn);
    if (n_net)
        start_network(fn, cards, net_peer, private_regions && gsi_pe.n_node > gsi_pe.n_local);
    free(net_peer);
}

void gsi_peers_connect(const char *fn)
{
    gsi_card_t mine = {0}, *all;

    mine.host_hash = host_hash();
    mine.pid = (int32_t)getpid();
    mine.n_regions = gsi_pe.n_regions;
    mine.p2p = !gsi_pe.env.disable_p2p;
    gsi_topo_my_cpus(&mine.cpus);
    for (int r = 0; r < gsi_pe.n_regions; r++) {
        mine.fd[r] = gsi_pe.region[r].fd;
        mine.size[r] = gsi_pe.region[r].size;
        mine.base[r] = gsi_pe.region[r].base;
    }
    all = calloc((size_t)gsi_pe.n_pes, sizeof(*all));
    if (!all)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
    if (gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0)
        gsi_fatal(fn, "bootstrap %s: %s", gsi_pe.boot->name, gsb_error());
    /* Kept: what node peers send over local sockets is checked against
     * the sender's pid (src/gpu/cuda/cuda_ipc.c). */
    gsi_pe.pid = calloc((size_t)gsi_pe.n_pes, sizeof(*gsi_pe.pid));
    if (!gsi_pe.pid)
        gsi_fatal(fn, "out of memory for %d PEs", gsi_pe.n_pes);
    for (int pe = 0; pe < gsi_pe.n_pes; pe++)
        gsi_pe.pid[pe] = all[pe].pid;
    connect_peers(fn, all);
    free(all);
}

void gsi_peers_disconnect(void)
{
    for (int r = 0; r < gsi_pe.n_regions; r++) {
        gsi_region_t *reg = &gsi_pe.region[r];

        for (int pe = 0; reg->peer && pe < gsi_pe.n_pes; pe++)
            if (pe != gsi_pe.my_pe && reg->peer[pe])
                gsi_memfd_unmap((void *)reg->peer[pe], reg->size);
        free(reg->peer);
        reg->peer = NULL;
    }
    free(gsi_pe.local_pes);
    gsi_pe.local_pes = NULL;
    free(gsi_pe.node_pes);
    gsi_pe.node_pes = NULL;
    free(gsi_pe.pid);
    gsi_pe.pid = NULL;
}
