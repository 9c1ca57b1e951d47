/* src/core/heap_keep.c - holds on heaps kept mapped past finalize (see the header). */
#include "core/heap_keep.h"

#include <pthread.h>
#include <stdint.h>

#include "base/log.h"

/* Each finalize of a process that re-initializes may leave one hold behind
 * until its views die; a serving process that cycles faster than it drops
 * its tensors runs out of slots and is told so. */
#define MAX_HOLDS 16
#define MAX_TAKES 4 /* heaps per finalize: host and device, with room */

struct gsi_heap_hold {
    int live, armed, n;
    struct {
        gsi_heap_unmap_fn_t unmap;
        void *arg;
    } take[MAX_TAKES];
};

static gsi_heap_hold_t holds[MAX_HOLDS];
static gsi_heap_hold_t *armed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

gsi_status_t gsi_heap_hold(const char *fn, gsi_heap_hold_t **hold)
{
    gsi_status_t status = GSI_ERR_NOMEM;

    pthread_mutex_lock(&lock);
    if (armed) {
        *hold = armed;
        status = GSI_OK;
        goto out;
    }
    for (int i = 0; i < MAX_HOLDS; i++)
        if (!holds[i].live) {
            holds[i] = (gsi_heap_hold_t){.live = 1, .armed = 1};
            armed = *hold = &holds[i];
            status = GSI_OK;
            goto out;
        }
    GSI_WARN("%s: %d heaps of earlier finalizes are still held by views of them: drop those "
             "tensors before finalizing again",
             fn, MAX_HOLDS);
out:
    pthread_mutex_unlock(&lock);
    return status;
}

int gsi_heap_hold_take(gsi_heap_unmap_fn_t unmap, void *arg)
{
    int taken = 0;

    pthread_mutex_lock(&lock);
    if (armed && armed->n < MAX_TAKES) {
        armed->take[armed->n].unmap = unmap;
        armed->take[armed->n].arg = arg;
        armed->n++;
        taken = 1;
    }
    pthread_mutex_unlock(&lock);
    return taken;
}

void gsi_heap_hold_disarm(void)
{
    pthread_mutex_lock(&lock);
    if (armed)
        armed->armed = 0;
    armed = NULL;
    pthread_mutex_unlock(&lock);
}

/* The live hold at address hold, or NULL: compared as integers, so a
 * garbage pointer is never dereferenced. */
static gsi_heap_hold_t *find(const gsi_heap_hold_t *hold)
{
    uintptr_t p = (uintptr_t)hold, base = (uintptr_t)holds;
    size_t i = (p - base) / sizeof(holds[0]);

    if (p < base || p >= base + sizeof(holds) || (p - base) % sizeof(holds[0]))
        return NULL;
    return holds[i].live ? &holds[i] : NULL;
}

gsi_status_t gsi_heap_hold_drop(const char *fn, gsi_heap_hold_t *hold)
{
    gsi_heap_hold_t *live, h;

    pthread_mutex_lock(&lock);
    if (!(live = find(hold))) {
        pthread_mutex_unlock(&lock);
        GSI_WARN("%s: %p is not a live heap hold (dropped twice?)", fn, (void *)hold);
        return GSI_ERR_INVALID;
    }
    h = *live;
    if (armed == live)
        armed = NULL;
    *live = (gsi_heap_hold_t){0};
    pthread_mutex_unlock(&lock);
    /* Outside the lock: unmapping a large heap takes time and needs no hold. */
    for (int k = 0; k < h.n; k++)
        h.take[k].unmap(h.take[k].arg);
    return GSI_OK;
}
