/* src/coll/team.c - team membership, creation by split, and destruction.
 *
 * A new team needs a slot of synchronization words that is free on all its
 * members.  Creation is collective over the parent only: every parent
 * member publishes its free-slot bitmap in the parent's slot, and after a
 * parent barrier each ANDs the members' bitmaps, so all agree on the lowest
 * common free slot (or all fail alike) with no world-wide step. */
#include "coll/team.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coll/sync.h"
#include "core/pe.h"
#include "core/rma.h"
#include "core/wait.h"

void (*gsi_team_observer)(int slot, const struct gshmem_team *team);

/* Exported: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED are their addresses. */
__attribute__((visibility("default"))) struct gshmem_team gshmem_team_world = {.my_pe = -1};
__attribute__((visibility("default"))) struct gshmem_team gshmem_team_shared = {.my_pe = -1};
__attribute__((visibility("default"))) struct gshmem_team gshmem_team_node = {.my_pe = -1};

enum { SLOT_WORLD = 0, SLOT_SHARED = 1, SLOT_NODE = 2, SLOTS_PREDEFINED = 3 };

struct gshmem_team gsi_team_pool[GSI_TEAM_POOL];
/* Where the search for a free entry starts: past the one taken last, so
 * the entry dead longest comes first. */
static unsigned pool_next;

_Static_assert(GSI_TEAM_POOL >= 64, "the pool holds GSHMEM_MAX_TEAMS teams at once");

void gsi_fatal_team(const char *fn, const void *team)
{
    gsi_fatal(fn, "team handle %p is not a live team (destroyed, or never created)", team);
}

/* A free entry, marked GSI_TEAM_BUILDING; NULL if none (cannot happen while
 * GSHMEM_MAX_TEAMS limits the teams that exist).  Threads may split teams
 * at once (SHMEM_THREAD_MULTIPLE): the compare-and-swap gives each entry to
 * one of them. */
static struct gshmem_team *pool_take(void)
{
    for (unsigned k = 0; k < GSI_TEAM_POOL; k++) {
        unsigned i = __atomic_fetch_add(&pool_next, 1, __ATOMIC_RELAXED) % GSI_TEAM_POOL;
        uint32_t dead = 0;

        if (__atomic_compare_exchange_n(&gsi_team_pool[i].live, &dead, GSI_TEAM_BUILDING, 0,
                                        __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return &gsi_team_pool[i];
    }
    return NULL;
}

/* Everything but `live`, which other threads may be reading (a stale
 * handle being checked). */
static void clear_entry(struct gshmem_team *team)
{
    memset(&team->my_pe, 0, sizeof(*team) - offsetof(struct gshmem_team, my_pe));
}

struct gshmem_team *gsi_team_of_slot(int slot)
{
    struct gshmem_team *fixed[] = {&gshmem_team_world, &gshmem_team_shared, &gshmem_team_node};

    if (slot < 0)
        return NULL;
    for (unsigned i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        if (gsi_team_is_live(fixed[i]) && fixed[i]->slot == slot)
            return fixed[i];
    for (unsigned i = 0; i < GSI_TEAM_POOL; i++)
        if (gsi_team_is_live(&gsi_team_pool[i]) && gsi_team_pool[i].slot == slot &&
            gsi_team_pool[i].my_pe >= 0)
            return &gsi_team_pool[i];
    return NULL;
}

gsi_team_sync_t *gsi_team_sync(const struct gshmem_team *team)
{
    return &gsi_pe.sync->team[team->slot];
}

int gsi_team_index(const struct gshmem_team *team, int pe)
{
    if (team->strided) {
        int d = pe - team->start;

        if (team->stride == 0)
            return d == 0 ? 0 : -1;
        if (d % team->stride || d / team->stride < 0 || d / team->stride >= team->n_pes)
            return -1;
        return d / team->stride;
    }
    for (int i = 0; i < team->n_pes; i++)
        if (team->pes[i] == pe)
            return i;
    return -1;
}

static int members_p2p(const struct gshmem_team *team)
{
    for (int i = 0; i < team->n_pes; i++)
        if (!gsi_pe.region[GSI_REGION_HEAP].peer[gsi_team_world_pe(team, i)])
            return 0;
    return 1;
}

void gsi_team_init_predefined(void)
{
    struct gshmem_team *world = &gshmem_team_world, *shared = &gshmem_team_shared;
    struct gshmem_team *node = &gshmem_team_node;

    *world = (struct gshmem_team){.live = GSI_TEAM_LIVE,
                                  .my_pe = gsi_pe.my_pe,
                                  .n_pes = gsi_pe.n_pes,
                                  .start = 0,
                                  .stride = 1,
                                  .strided = 1,
                                  .slot = SLOT_WORLD,
                                  .n_contexts = 0};
    world->all_p2p = members_p2p(world);
    *shared = (struct gshmem_team){.live = GSI_TEAM_LIVE,
                                   .n_pes = gsi_pe.n_local,
                                   .pes = gsi_pe.local_pes,
                                   .slot = SLOT_SHARED,
                                   .all_p2p = 1};
    shared->my_pe = gsi_team_index(shared, gsi_pe.my_pe);
    *node = (struct gshmem_team){.live = GSI_TEAM_LIVE,
                                 .n_pes = gsi_pe.n_node,
                                 .pes = gsi_pe.node_pes,
                                 .slot = SLOT_NODE};
    node->all_p2p = members_p2p(node);
    node->my_pe = gsi_team_index(node, gsi_pe.my_pe);
    gsi_pe.sync->free_slots = ~(uint64_t)0 << SLOTS_PREDEFINED;
}

void gsi_team_fini_predefined(void)
{
    gshmem_team_world = (struct gshmem_team){.my_pe = -1};
    gshmem_team_shared = (struct gshmem_team){.my_pe = -1};
    gshmem_team_node = (struct gshmem_team){.my_pe = -1};
    /* Teams the program did not destroy die with the library; a later
     * shmem_init starts with none. */
    for (int i = 0; i < GSI_TEAM_POOL; i++) {
        __atomic_store_n(&gsi_team_pool[i].live, 0, __ATOMIC_RELEASE);
        free(gsi_team_pool[i].pes);
        clear_entry(&gsi_team_pool[i]);
    }
}

/* Lowest `count` slots free on every parent member, agreed collectively. */
static gsi_status_t agree_slots(const char *fn, struct gshmem_team *parent, int count, int *slots)
{
    gsi_team_sync_t *mine = gsi_team_sync(parent);
    uint64_t limit, common = gsi_pe.sync->free_slots;

    limit = gsi_pe.env.max_teams >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << gsi_pe.env.max_teams) - 1;
    __atomic_store_n(&mine->agree.value, common, __ATOMIC_RELAXED);
    gsi_team_barrier(fn, parent, 0);
    for (int i = 0; i < parent->n_pes; i++) {
        uint64_t theirs;

        gsi_lib_get(fn, &theirs, &mine->agree.value, sizeof(theirs), gsi_team_world_pe(parent, i));
        common &= theirs;
    }
    /* No member may publish again before every member has read. */
    gsi_team_barrier(fn, parent, 0);
    common &= limit;
    for (int k = 0; k < count; k++) {
        if (!common) {
            GSI_WARN("%s: no free team slot: GSHMEM_MAX_TEAMS=%lld teams exist on some PE of "
                     "the parent team (destroy teams, or raise GSHMEM_MAX_TEAMS up to 64)",
                     fn, gsi_pe.env.max_teams);
            return GSI_ERR_NOMEM;
        }
        slots[k] = __builtin_ctzll(common);
        common &= common - 1;
    }
    return GSI_OK;
}

/* This PE's membership of the team of parent members start + i * stride. */
static gsi_status_t build_team(const struct gshmem_team *parent, int start, int stride, int size,
                               int slot, int n_contexts, struct gshmem_team **out)
{
    struct gshmem_team *team;
    int me = -1;

    *out = NULL;
    for (int i = 0; i < size; i++)
        if (start + i * stride == parent->my_pe)
            me = i;
    if (me < 0)
        return GSI_OK;
    team = pool_take();
    if (!team)
        return GSI_ERR_NOMEM;
    clear_entry(team);
    team->my_pe = me;
    team->n_pes = size;
    team->slot = slot;
    team->n_contexts = n_contexts;
    if (parent->strided) {
        team->strided = 1;
        team->start = parent->start + parent->stride * start;
        team->stride = parent->stride * stride;
    } else {
        team->pes = malloc((size_t)size * sizeof(int));
        if (!team->pes)
            goto err_pes;
        for (int i = 0; i < size; i++)
            team->pes[i] = parent->pes[start + i * stride];
    }
    team->all_p2p = members_p2p(team);
    gsi_pe.sync->free_slots &= ~((uint64_t)1 << slot);
    if (gsi_team_observer)
        gsi_team_observer(slot, team);
    __atomic_store_n(&team->live, GSI_TEAM_LIVE, __ATOMIC_RELEASE);
    *out = team;
    return GSI_OK;
err_pes:
    __atomic_store_n(&team->live, 0, __ATOMIC_RELEASE);
    return GSI_ERR_NOMEM;
}

gsi_status_t gsi_team_from_pes(const int *pes, int n, int my_index, int slot, int n_contexts,
                               struct gshmem_team **team)
{
    /* A parent of exactly the members, in order: the new team is all of it. */
    struct gshmem_team all = {.my_pe = my_index, .n_pes = n, .pes = (int *)pes};

    return build_team(&all, 0, 1, n, slot, n_contexts, team);
}

gsi_status_t gsi_team_split(const char *fn, struct gshmem_team *parent, int start, int stride,
                            int size, int n_contexts, struct gshmem_team **team)
{
    int slot;
    gsi_status_t status;

    *team = NULL;
    status = agree_slots(fn, parent, 1, &slot);
    if (status != GSI_OK)
        return status;
    status = build_team(parent, start, stride, size, slot, n_contexts, team);
    /* The new team's members must not signal a member that has not left
     * the split yet; a barrier of the new team would need its slot, which
     * is why the parent synchronizes. */
    gsi_team_barrier(fn, parent, 0);
    return status;
}

gsi_status_t gsi_team_split_2d(const char *fn, struct gshmem_team *parent, int xrange,
                               int x_contexts, int y_contexts, struct gshmem_team **xteam,
                               struct gshmem_team **yteam)
{
    int slots[2], n = parent->n_pes, me = parent->my_pe;
    int row = me / xrange, col = me % xrange;
    int rows = (n + xrange - 1) / xrange;
    int xsize = row < rows - 1 ? xrange : n - row * xrange;
    int ysize = rows - (col >= n - (rows - 1) * xrange ? 1 : 0);
    gsi_status_t status;

    *xteam = *yteam = NULL;
    status = agree_slots(fn, parent, 2, slots);
    if (status != GSI_OK)
        return status;
    status = build_team(parent, row * xrange, 1, xsize, slots[0], x_contexts, xteam);
    if (status == GSI_OK)
        status = build_team(parent, col, xrange, ysize, slots[1], y_contexts, yteam);
    gsi_team_barrier(fn, parent, 0);
    return status;
}

void gsi_team_destroy(const char *fn, struct gshmem_team *team)
{
    gsi_team_sync_t *sync = gsi_team_sync(team);

    gsi_team_barrier(fn, team, 1);
    /* The central barrier's members still poll the root's `released` after
     * the root has left it: the root clears its slot only once every other
     * member is out, which each says with one more add to its `arrived`. */
    if (team->n_pes > 1 && team->all_p2p) {
        if (team->my_pe != 0) {
            gsi_lib_add64(fn, &sync->arrived.value, 1, gsi_team_world_pe(team, 0));
        } else {
            uint64_t out = team->epoch * (uint64_t)team->n_pes + (uint64_t)team->n_pes - 1;
            gsi_waiter_t w = GSI_WAITER_INIT;

            while (__atomic_load_n(&sync->arrived.value, __ATOMIC_ACQUIRE) < out)
                gsi_wait_step(&w, fn, "the other members to leave the team");
        }
    }
    /* Counters restart from zero for the next team in this slot. */
    memset(sync, 0, sizeof(gsi_team_sync_t));
    if (gsi_team_observer)
        gsi_team_observer(team->slot, NULL);
    gsi_pe.sync->free_slots |= (uint64_t)1 << team->slot;
    /* Dead before its members go: a checked handle never reaches them. */
    __atomic_store_n(&team->live, 0, __ATOMIC_RELEASE);
    free(team->pes);
    team->pes = NULL;
}
