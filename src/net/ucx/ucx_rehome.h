/* src/net/ucx/ucx_rehome.h - move a region onto memory that UCX allocates.
 *
 * UCX's shared-memory transports (posix, sysv) reach only memory that UCX
 * allocated itself: memory the program owns, as the memfd behind our heap
 * and static data, gets no remote key there, and UCX emulates RMA and
 * atomics with active messages that the target must progress (a put ping-
 * pong over posix measured 290 ns, against 55 ns for ucx_perftest on
 * memory UCX allocated).  When no PE maps a region by load/store, the
 * region can live in UCX's memory instead: UCX allocates a shared segment,
 * the region's bytes are copied there, and a second mapping of that
 * segment replaces the region at its own addresses, so nothing else
 * changes for this PE.  Remote PEs address UCX's mapping (the returned
 * base), which holds the same pages.  UCX tries SysV first, whose pages
 * come as they are touched; its posix segments are written in full when
 * made (UCX checks that /dev/shm has the room), so a region moved there
 * takes its whole size in memory at once. */
#ifndef GST_UCX_REHOME_H
#define GST_UCX_REHOME_H

#include <stddef.h>
#include <ucp/api/ucp.h>

/* Moves [base, base + size) onto UCX-allocated shared memory, mapped with
 * ucp_mem_map into *memh, whose own address goes to *ucx_base; the
 * segment is made this user's alone first (ucx_private.h).  Returns 0 when
 * it did; -1 when UCX's allocation is not a shared mapping (TCP and RDMA
 * transports allocate private memory), lies in a /dev/shm with less room
 * than size, or anything else failed, and then the region is as it was and
 * nothing is left mapped; -2, with err, when the segment could not be made
 * private (then the job must not go on). */
int gst_ucx_rehome(ucp_context_h context, void *base, size_t size, ucp_mem_h *memh, void **ucx_base,
                   char *err, size_t errlen);

#endif
