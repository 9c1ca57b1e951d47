/* src/core/symreg.c - buffers made symmetric after init (symreg.h).
 *
 * Private anonymous memory cannot be reached by node peers:
 * process_vm_writev is refused by Yama's default ptrace_scope, and
 * /proc/<pid>/map_files needs CAP_SYS_ADMIN.  So only memory behind an open
 * file is taken, which peers open as /proc/<pid>/fd/<fd>, as they open the
 * heap's memfd.  Each registration exchanges one card per PE through the
 * bootstrap's allgather; the transport exchanges its own keys in
 * map_region. */
#define _GNU_SOURCE
#include "config.h"
#include "core/symreg.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/memfd.h"
#include "base/shared_map.h"
#include "bootstrap/bootstrap.h"
#include "core/pe.h"
#include "net/transport.h"

_Static_assert(GSI_REGION_MAX <= GST_MAX_REGIONS, "the transport knows every region");

gsi_symreg_observer_fn_t gsi_symreg_observer;

/* What each PE tells the others about its buffer. */
typedef struct symreg_card {
    uint64_t size;
    uint64_t offset; /* file offset of the buffer */
    int32_t fd;      /* open on the file in this process */
    int32_t region;  /* the slot this PE picked; -1: none free */
    int32_t net;     /* 1: this PE reaches some peer through the transport */
    int32_t pad;
} symreg_card_t;

/* A registration: what this PE mapped of its node peers' buffers. */
typedef struct symreg {
    void *buf;
    size_t size;
    uintptr_t *peer; /* [n_pes] the region's peer[] */
    void **map;      /* [n_pes] page-aligned mapping of a node peer's file; NULL: none */
    size_t *map_len; /* [n_pes] */
    int on_net;      /* registered with the transport */
} symreg_t;

static symreg_t reg_of[GSI_REGION_MAX];

/* The first free slot: every PE registers in the same order, so every PE
 * picks the same one (checked). */
static int free_slot(void)
{
    for (int r = GSI_REGION_SYMREG; r < GSI_REGION_MAX; r++)
        if (!gsi_pe.region[r].size && !gsi_pe.region[r].peer && !reg_of[r].buf)
            return r;
    return -1;
}

/* [buf, buf + size) overlaps a region this PE has already. */
static int overlaps(const void *buf, size_t size)
{
    uintptr_t a = (uintptr_t)buf;

    for (int r = 0; r < gsi_pe.n_regions; r++) {
        const gsi_region_t *g = &gsi_pe.region[r];

        if (g->size && a < g->base + g->size && g->base < a + size)
            return 1;
    }
    return 0;
}

static void check_cards(const char *fn, const symreg_card_t *all)
{
    for (int pe = 1; pe < gsi_pe.n_pes; pe++) {
        if (all[pe].size != all[0].size)
            gsi_fatal(fn,
                      "PE %d registers %llu bytes, PE 0 %llu: every PE must pass a buffer of "
                      "the same size",
                      pe, (unsigned long long)all[pe].size, (unsigned long long)all[0].size);
        if (all[pe].region != all[0].region)
            gsi_fatal(fn,
                      "PE %d holds other symmetric buffers than PE 0 (slot %d there, %d on PE 0): "
                      "every PE must register and unregister in the same order",
                      pe, (int)all[pe].region, (int)all[0].region);
        if (all[pe].net != all[0].net)
            gsi_fatal(fn, "PE %d %s the network transport and PE 0 %s", pe,
                      all[pe].net ? "uses" : "does not use", all[0].net ? "does" : "does not");
    }
}

/* A registered buffer lives in a file its owner may shrink (ftruncate)
 * while it is registered; then a load or store past the file's new end
 * raises SIGBUS, in the owner or in any node peer that mapped it, and the
 * process would die with no word.  This handler names the buffer, the
 * owner and the fix, and exits: the launcher (or the unique-id bootstrap's
 * closed connection) ends the job.  A SIGBUS anywhere else goes to the
 * handler that was there before (restored, and the fault raised again). */
static struct sigaction bus_prev;
static int bus_installed;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    uintptr_t a = (uintptr_t)si->si_addr;

    (void)sig;
    (void)ctx;
    for (int r = GSI_REGION_SYMREG; r < GSI_REGION_MAX; r++) {
        const symreg_t *s = &reg_of[r];
        int owner = -1;

        if (!s->buf)
            continue;
        if (a >= (uintptr_t)s->buf && a < (uintptr_t)s->buf + s->size)
            owner = gsi_pe.my_pe;
        for (int pe = 0; owner < 0 && s->map && pe < gsi_pe.n_pes; pe++)
            if (s->map[pe] && a >= (uintptr_t)s->map[pe] &&
                a < (uintptr_t)s->map[pe] + s->map_len[pe])
                owner = pe;
        if (owner < 0)
            continue;
        /* snprintf of %d and %p takes no lock and no memory in glibc. */
        GSI_WARN("SIGBUS at %p, in PE %d's buffer of %zu bytes registered with "
                 "gshmemx_buffer_register_symmetric: the file behind it is shorter than the "
                 "buffer (PE %d shrank it with ftruncate?); keep the file as long as the buffer "
                 "until gshmemx_buffer_unregister_symmetric",
                 si->si_addr, owner, s->size, owner);
        _exit(1);
    }
    sigaction(SIGBUS, &bus_prev, NULL);
    bus_installed = 0;
}

static void guard_sigbus(void)
{
    struct sigaction sa;

    if (bus_installed)
        return;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &bus_prev) == 0)
        bus_installed = 1;
}

/* Map node peer pe's buffer: its file from the page that holds the buffer's
 * start. */
static void map_node_peer(const char *fn, symreg_t *s, const symreg_card_t *c, int pe)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t from = c->offset & ~(page - 1), delta = c->offset - from;
    void *map;

    s->map_len[pe] = (size_t)(delta + c->size);
    if (gsi_memfd_map_peer_at(gsi_pe.pid[pe], c->fd, from, s->map_len[pe], &map) != GSI_OK)
        gsi_fatal(fn, "cannot map the registered buffer of PE %d (pid %d, fd %d) on this node", pe,
                  gsi_pe.pid[pe], (int)c->fd);
    s->map[pe] = map;
    s->peer[pe] = (uintptr_t)map + (uintptr_t)delta;
}

static void release(int r)
{
    symreg_t *s = &reg_of[r];

    for (int pe = 0; s->map && pe < gsi_pe.n_pes; pe++)
        if (s->map[pe])
            gsi_memfd_unmap(s->map[pe], s->map_len[pe]);
    free(s->peer);
    free(s->map);
    free(s->map_len);
    memset(s, 0, sizeof(*s));
}

gsi_status_t gsi_symreg_add(const char *fn, void *buf, size_t size, char *err, size_t errlen)
{
    symreg_card_t mine = {0}, *all;
    char why[512] = "";
    gsi_region_t reg;
    gsi_status_t status;
    symreg_t *s;
    int r, n = gsi_pe.n_pes;

    if (!buf)
        gsi_fatal(fn, "buf is NULL");
    if (!size)
        gsi_fatal(fn, "size is 0");
    if ((uintptr_t)buf + size < (uintptr_t)buf)
        gsi_fatal(fn, "[%p, +%zu) wraps around the address space", buf, size);
    if (overlaps(buf, size))
        gsi_fatal(fn,
                  "[%p, +%zu) overlaps symmetric memory already (the heap, static data or "
                  "a registered buffer)",
                  buf, size);
    status = gsi_shared_map_find(buf, size, &mine.fd, &mine.offset, why, sizeof(why));
    if (status != GSI_OK)
        gsi_fatal(fn, "%s", why);
    mine.size = size;
    mine.region = free_slot();
    mine.net = gsi_pe.net && gsi_pe.net->map_region && gsi_pe.net != &gst_none_ops;
    all = calloc((size_t)n, sizeof(*all));
    if (!all)
        gsi_fatal(fn, "out of memory for %d PEs", n);
    if (gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0)
        gsi_fatal(fn, "bootstrap %s: %s", gsi_pe.boot->name, gsb_error());
    check_cards(fn, all);
    r = mine.region;
    if (r < 0) {
        free(all);
        snprintf(err, errlen, "all %d slots for registered symmetric buffers are taken",
                 GSI_SYMREG_MAX);
        return GSI_ERR_NOMEM;
    }
    s = &reg_of[r];
    s->peer = calloc((size_t)n, sizeof(*s->peer));
    s->map = calloc((size_t)n, sizeof(*s->map));
    s->map_len = calloc((size_t)n, sizeof(*s->map_len));
    if (!s->peer || !s->map || !s->map_len)
        gsi_fatal(fn, "out of memory for %d PEs", n);
    s->buf = buf;
    s->size = size;
    guard_sigbus();
    for (int pe = 0; pe < n; pe++) {
        if (pe == gsi_pe.my_pe)
            s->peer[pe] = (uintptr_t)buf;
        else if (gsi_pe.region[GSI_REGION_HEAP].peer[pe]) /* a node peer, mapped since init */
            map_node_peer(fn, s, &all[pe], pe);
    }
    free(all);
    if (mine.net) {
        status = gsi_pe.net->map_region(r, buf, size, GST_MEM_HOST, why, sizeof(why));
        if (status != GSI_OK)
            gsi_fatal(fn, "transport %s: %s", gsi_pe.net->name, why);
        s->on_net = 1;
    }
    memset(&reg, 0, sizeof(reg));
    reg.base = (uintptr_t)buf;
    reg.size = reg.user_size = size;
    reg.peer = s->peer;
    reg.fd = mine.fd;
    if (gsi_region_add(r, &reg) != GSI_OK)
        gsi_fatal(fn, "region %d is taken", r);
    if (gsi_symreg_observer)
        gsi_symreg_observer(r - GSI_REGION_SYMREG, r, buf, size, s->peer);
    GSI_DEBUG("%s: %zu bytes at %p are region %d", fn, size, buf, r);
    return GSI_OK;
}

int gsi_symreg_find(const char *fn, const void *buf, size_t size)
{
    for (int r = GSI_REGION_SYMREG; r < GSI_REGION_MAX; r++) {
        if (reg_of[r].buf != buf)
            continue;
        if (reg_of[r].size != size)
            gsi_fatal(fn, "%p was registered with %zu bytes, not %zu", buf, reg_of[r].size, size);
        return r;
    }
    gsi_fatal(fn,
              "%p is not the start of a buffer registered with "
              "gshmemx_buffer_register_symmetric",
              buf);
}

void gsi_symreg_remove(int r)
{
    char why[256] = "";

    if (r < GSI_REGION_SYMREG || r >= GSI_REGION_MAX || !reg_of[r].buf)
        return;
    if (gsi_symreg_observer)
        gsi_symreg_observer(r - GSI_REGION_SYMREG, r, NULL, 0, NULL);
    gsi_region_remove(r);
    if (reg_of[r].on_net && gsi_pe.net->map_region(r, NULL, 0, GST_MEM_HOST, why, sizeof(why)))
        GSI_WARN("transport %s: releasing region %d: %s", gsi_pe.net->name, r, why);
    release(r);
}

void gsi_symreg_remove_all(void)
{
    for (int r = GSI_REGION_SYMREG; r < GSI_REGION_MAX; r++)
        gsi_symreg_remove(r);
}
