/* src/core/liveness.c - failure propagation (see liveness.h).
 *
 * A PE j is "blocked" when two looks >= 1 s apart saw it in the same wait
 * (same wait_id) with its beat advanced - it polled all along and nothing
 * released it - or saw it finalizing.  When every PE, this one included,
 * has been blocked at two looks in a row, no PE can make progress: nothing
 * outside a wait is running that could store what a waiter waits for.  The
 * lowest-numbered PE that waits (not finalizing) says so, in one line, and
 * ends the job; the others keep waiting until the launcher's abort.
 *
 * Never a false positive, so it is conservative: a PE whose network did
 * work for it since the last check, whose host lanes run a kernel, whose
 * proxy threads executed descriptors, or that has a GPU context, does not
 * beat (its peers then never count it as blocked) and does not judge.  At
 * SHMEM_THREAD_MULTIPLE nothing is published or judged: another thread of
 * the PE may be about to release the wait, and one record per PE cannot
 * describe several threads.  Only the thread that called shmem_init
 * publishes: host lanes, proxy and user threads wait too.
 *
 * What holds at any thread level: a node peer whose process ended without
 * finalizing has made the job erroneous, whoever might release this wait.
 * So at THREAD_MULTIPLE any thread whose wait has lasted GSHMEM_FAIL_CHECK
 * seconds checks the node peers' processes, one thread at a time and at
 * most once a second (dead_watch), and ends the job with the same line. */
#define _GNU_SOURCE
#include "core/liveness.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "core/pe.h"
#include "core/rma.h"

#define SEC 1000000000ull
#define LOOK_EVERY SEC /* between two looks at the peers */
/* Looks in a row that must find a peer blocked.  One is not enough: a peer
 * released just after its last beat still shows that beat advanced at the
 * next look, though it runs; at the look after, its beat has stopped (or
 * a new wait_id shows), so two in a row never count it.  The price: a
 * job with no finalizing PE ends after GSHMEM_FAIL_CHECK + 2 s, not + 1. */
#define CONFIRM 2
/* A wait is published once it has lasted this long (see gsi_live_check). */
#define PUBLISH_AFTER (SEC / 1000)

typedef struct seen {
    uint64_t word, state;
    unsigned streak; /* looks in a row that found it blocked */
    int valid;
    pid_t pid; /* a node peer's process, seen alive at init; 0: not watched */
} seen_t;

static struct {
    int on;
    int dead_only;         /* THREAD_MULTIPLE: only the node peers' processes */
    uint64_t dead_look_ns; /* dead_only: the last look, any thread's (atomic) */
    gsi_live_t *rec;
    uint32_t wait_id, beat;
    int finalizing;
    int published;         /* this wait's name, state and wait_id are out */
    int looked;            /* seen[] holds streaks to reset */
    uint64_t start_ns;     /* this PE's wait has been quiet since */
    uint64_t last_look_ns; /* 0: no look in this wait yet */
    unsigned long activity;
    seen_t *seen; /* [n_pes]: the previous look */
} L;

static int process_ended(pid_t pid);

/* The init thread; and set while a look runs, so that a wait inside it (a
 * get through the network) does not look again. */
static __thread int is_init_thread, inside;

void gsi_live_init(gsi_live_t *rec)
{
    memset(&L, 0, sizeof(L));
    L.rec = rec;
    rec->pid = (uint64_t)getpid();
    __atomic_store_n(&rec->state, GSI_LIVE_RUNNING, __ATOMIC_RELEASE);
    /* See the top of the file: at THREAD_MULTIPLE, the dead-peer watch
     * only. */
    if (gsi_pe.env.fail_check <= 0 || gsi_pe.n_pes < 2)
        return;
    L.seen = calloc((size_t)gsi_pe.n_pes, sizeof(*L.seen));
    if (!L.seen)
        return;
    /* Only the node peers whose process this PE sees now: one in another
     * PID namespace (a container) would look gone forever. */
    for (int i = 0; gsi_pe.pid && i < gsi_pe.n_node; i++) {
        int j = gsi_pe.node_pes[i];

        if (j != gsi_pe.my_pe && gsi_pe.pid[j] > 0 && !process_ended((pid_t)gsi_pe.pid[j]))
            L.seen[j].pid = (pid_t)gsi_pe.pid[j];
    }
    is_init_thread = 1;
    if (gsi_pe.thread_level == SHMEM_THREAD_LEVEL_MULTIPLE)
        L.dead_only = 1;
    else
        L.on = 1;
}

void gsi_live_fini(void)
{
    L.on = 0;
    L.dead_only = 0;
    free(L.seen);
    L.seen = NULL;
    L.rec = NULL;
}

static int enabled(void)
{
    return L.on && is_init_thread && !inside;
}

static void publish(void)
{
    __atomic_store_n(&L.rec->word, (uint64_t)L.wait_id << 32 | L.beat, __ATOMIC_RELEASE);
}

static void set_name(const char *fn)
{
    char name[GSI_LIVE_NAME] = {0};

    strncpy(name, fn, sizeof(name) - 1);
    memcpy(L.rec->name, name, sizeof(name));
}

void gsi_live_finalizing(void)
{
    if (!L.rec)
        return;
    L.finalizing = 1;
    set_name("shmem_finalize");
    __atomic_store_n(&L.rec->state, GSI_LIVE_FINALIZING, __ATOMIC_RELEASE);
}

void gsi_live_finalized(void)
{
    if (L.rec)
        __atomic_store_n(&L.rec->state, GSI_LIVE_FINALIZED, __ATOMIC_RELEASE);
}

/* PE j's record: a load through the mapped heap, else a get. */
static void read_record(int j, gsi_live_t *out)
{
    const gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];
    const gsi_live_t *r;

    if (!heap->peer || !heap->peer[j]) {
        gsi_lib_get("gshmem liveness", out, L.rec, sizeof(*out), j);
        out->name[GSI_LIVE_NAME - 1] = 0;
        return;
    }
    r = (const gsi_live_t *)(heap->peer[j] + ((uintptr_t)L.rec - heap->base));
    out->word = __atomic_load_n(&r->word, __ATOMIC_ACQUIRE);
    out->state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
    out->pid = r->pid;
    memcpy(out->name, r->name, sizeof(out->name));
    out->name[GSI_LIVE_NAME - 1] = 0;
}

/* Has the process of node peer j ended (gone, or a zombie its launcher has
 * not reaped yet)? */
static int process_ended(pid_t pid)
{
    char path[64], buf[256], *p;
    FILE *f;
    int zombie = 0;

    if (pid <= 0)
        return 0;
    if (kill(pid, 0) == -1)
        return errno == ESRCH;
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    f = fopen(path, "r");
    if (!f)
        return 0;
    /* "pid (comm) S ...": the state follows the last ')'. */
    if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
        zombie = p[2] == 'Z';
    fclose(f);
    return zombie;
}

/* Did node peer j, whose process has ended, finalize?  Its record through
 * the mapped heap (read after the end: the state can no longer change).
 * A peer not mapped here (no load/store path) is not asked over the
 * network, where a dead process may not answer: it cannot have finalized,
 * since finalize begins with a barrier that this PE, outside finalize
 * (the callers' condition), has not entered. */
static int peer_finalized(int j)
{
    const gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];
    gsi_live_t rec;

    if (!heap->peer || !heap->peer[j])
        return 0;
    read_record(j, &rec);
    return rec.state == GSI_LIVE_FINALIZED;
}

/* A node peer that ended without finalizing: nobody will ever answer. */
static void check_dead_peers(const char *fn)
{
    for (int j = 0; j < gsi_pe.n_pes; j++) {
        if (!L.seen[j].pid || L.seen[j].state == GSI_LIVE_FINALIZED)
            continue;
        if (process_ended(L.seen[j].pid) && !peer_finalized(j))
            gsi_fatal(fn, "PE %d (pid %d) ended without shmem_finalize while this PE waits in %s",
                      j, (int)L.seen[j].pid, fn);
    }
}

/* THREAD_MULTIPLE: the dead-peer check of any thread's long wait; the
 * thread that wins the clock word looks, the others go on polling. */
static void dead_watch(uint64_t now, int first, const char *fn)
{
    static __thread uint64_t wait_start;
    uint64_t last = __atomic_load_n(&L.dead_look_ns, __ATOMIC_RELAXED);

    if (first) {
        wait_start = now;
        return;
    }
    if (now - wait_start < (uint64_t)gsi_pe.env.fail_check * SEC || now - last < LOOK_EVERY ||
        !__atomic_compare_exchange_n(&L.dead_look_ns, &last, now, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED))
        return;
    check_dead_peers(fn);
}

/* Append "PE j <verb> name" to buf. */
static void append(char *buf, size_t len, const char *sep, int j, const char *verb,
                   const char *name)
{
    size_t used = strlen(buf);

    if (used < len)
        snprintf(buf + used, len - used, "%sPE %d %s %s", sep, j, verb, name[0] ? name : "?");
}

static _Noreturn void report(const char *fn, const char *what, const gsi_live_t *rec)
{
    int me = gsi_pe.my_pe, n = gsi_pe.n_pes, fin = -1;
    char others[256] = "";
    const char *sep = "";

    for (int j = 0; j < n; j++)
        if (j != me && rec[j].state >= GSI_LIVE_FINALIZING && fin < 0)
            fin = j;
    if (fin >= 0) {
        for (int j = 0, shown = 0; j < n && shown < 3; j++) {
            if (j == me || j == fin)
                continue;
            append(others, sizeof(others), sep, j, "waits in", rec[j].name);
            sep = ", ";
            shown++;
        }
        gsi_fatal(fn,
                  "PE %d called shmem_finalize while this PE waits in %s for %s; no PE can make "
                  "progress%s%s%s",
                  fin, fn, what, others[0] ? " (" : "", others, others[0] ? ")" : "");
    }
    for (int j = 0; j < n; j++) {
        append(others, sizeof(others), sep, j, "in", j == me ? fn : rec[j].name);
        sep = ", ";
    }
    gsi_fatal(fn, "every PE waits and none can make progress: %s (this PE waits for %s)", others,
              what);
}

static void look(uint64_t now, const char *fn, const char *what)
{
    int me = gsi_pe.my_pe, n = gsi_pe.n_pes, all = 1, lowest = me;
    gsi_live_t *rec = calloc((size_t)n, sizeof(*rec));

    if (!rec)
        return;
    check_dead_peers(fn);
    for (int j = 0; j < n; j++) {
        seen_t *s = &L.seen[j];
        int blocked;

        if (j == me)
            continue;
        if (s->state == GSI_LIVE_FINALIZED) {
            /* It may have left: its record stays as it was. */
            rec[j].state = GSI_LIVE_FINALIZED;
            strcpy(rec[j].name, "shmem_finalize");
        } else {
            read_record(j, &rec[j]);
        }
        if (rec[j].state >= GSI_LIVE_FINALIZING)
            blocked = 1;
        else
            blocked = rec[j].state == GSI_LIVE_WAITING && s->valid &&
                      (uint32_t)(rec[j].word >> 32) == (uint32_t)(s->word >> 32) &&
                      (uint32_t)rec[j].word != (uint32_t)s->word;
        s->streak = blocked ? s->streak + 1 : 0;
        s->word = rec[j].word;
        s->state = rec[j].state;
        s->valid = 1;
        if (s->streak < CONFIRM)
            all = 0;
        if (rec[j].state == GSI_LIVE_WAITING && j < lowest)
            lowest = j;
    }
    L.last_look_ns = now;
    if (all && lowest == me)
        report(fn, what, rec);
    free(rec);
}

void gsi_live_check(uint64_t now, int first, int net_quiet, const char *fn, const char *what)
{
    unsigned long activity;

    if (L.dead_only) {
        if (L.seen && !L.finalizing)
            dead_watch(now, first, fn);
        return;
    }
    if (!enabled() || L.finalizing)
        return;
    if (first) {
        /* A new wait: only its start.  Most waits end within microseconds
         * (a barrier of 4 PEs on 2 cores reaches this check in nearly every
         * wait, and publishing there made it 11% slower); one that lasts
         * PUBLISH_AFTER is published at a later check. */
        L.published = 0;
        L.start_ns = now;
        L.last_look_ns = 0;
        return;
    }
    if (!L.published) {
        if (now - L.start_ns < PUBLISH_AFTER)
            return;
        /* State and name first, the new wait_id last. */
        L.wait_id++;
        L.beat = 0;
        set_name(fn);
        __atomic_store_n(&L.rec->state, GSI_LIVE_WAITING, __ATOMIC_RELEASE);
        publish();
        L.published = 1;
        L.looked = 0;
        for (int j = 0; j < gsi_pe.n_pes; j++) {
            L.seen[j].valid = 0;
            L.seen[j].streak = 0;
        }
        return;
    }
    activity = __atomic_load_n(&gsi_pe.live_activity, __ATOMIC_RELAXED);
    if (!net_quiet || activity != L.activity ||
        __atomic_load_n(&gsi_pe.live_busy, __ATOMIC_ACQUIRE)) {
        /* Something that may release a wait runs: no beat, and the quiet
         * time of this wait starts again. */
        L.activity = activity;
        L.start_ns = now;
        L.last_look_ns = 0;
        for (int j = 0; L.looked && j < gsi_pe.n_pes; j++)
            L.seen[j].streak = 0;
        L.looked = 0;
        return;
    }
    L.beat++;
    publish();
    if (now - L.start_ns < (uint64_t)gsi_pe.env.fail_check * SEC ||
        (L.last_look_ns && now - L.last_look_ns < LOOK_EVERY))
        return;
    inside = 1;
    L.looked = 1;
    look(now, fn, what);
    inside = 0;
}

void gsi_live_describe(const char *fn, char *buf, unsigned len)
{
    const char *sep = "; ";
    gsi_live_t r;

    buf[0] = 0;
    if (!enabled())
        return;
    inside = 1;
    /* Before any get: a get to a node peer that is gone could hang. */
    check_dead_peers(fn);
    for (int j = 0, shown = 0; j < gsi_pe.n_pes && shown < 3; j++) {
        if (j == gsi_pe.my_pe)
            continue;
        if (L.seen[j].state == GSI_LIVE_FINALIZED) {
            r.state = GSI_LIVE_FINALIZED;
            strcpy(r.name, "shmem_finalize");
        } else {
            read_record(j, &r);
        }
        if (r.state == GSI_LIVE_RUNNING || !strcmp(r.name, fn))
            continue;
        snprintf(buf + strlen(buf), len - strlen(buf), "%sPE %d last seen in %s", sep, j, r.name);
        sep = ", ";
        shown++;
    }
    inside = 0;
}
