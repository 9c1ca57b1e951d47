/* src/net/ucx/ucx_private.h - the shared memory UCX makes for this PE, made
 * reachable by this user only.
 *
 * UCX's sysv transport creates its segments with mode 0660 (hard-coded in
 * UCX): a worker's receive FIFO and descriptors, and the memory
 * ucp_mem_map allocates, where rehomed regions live (ucx_rehome.h).  Any
 * user of the job user's primary group could attach them read-write and
 * change the job's data.  UCX has no setting for the mode, but the owner
 * may change it (IPC_SET) at any time, and a segment is only named to
 * peers (worker address, rkey) after the UCX call that made it returns.
 * So after each such call every segment made since gets mode 0600; and as
 * an attachment made while the door was open would stay, the segment's
 * attach count and last attaching process must then be this process's
 * alone, or the job ends.
 *
 * The same interfaces each bind a datagram socket to an abstract name the
 * kernel picks, for wake-up signals from peers.  An abstract name has no
 * mode: any local user may send to it.  Those signals serve only workers
 * that sleep (ucp_worker_arm), which this transport never does; so each
 * such socket is connected to itself, and the kernel then refuses every
 * other sender (EPERM).
 *
 * The rest needs nothing here: UCX's posix transport makes its files with
 * mode 0600 and unlinks them (peers open /proc/<pid>/fd/<fd>, which needs
 * the same user), and our memfds are made 0600 (src/base/memfd.c). */
#ifndef GST_UCX_PRIVATE_H
#define GST_UCX_PRIVATE_H

#include <stddef.h>

#include "base/status.h"

/* Notes the SysV segments this process maps and the sockets it has before
 * UCX makes any: the program's own, which are left as they are. */
gsi_status_t gst_ucx_private_begin(char *err, size_t errlen);

/* Every SysV segment this process made and maps that was not noted by
 * gst_ucx_private_begin and is still open to its group or others gets mode
 * 0600, and every new unconnected datagram socket on an abstract name is
 * connected to itself.  GSI_ERR_SYSTEM (err says why) when one cannot be
 * changed or another process attached one before; to be called before
 * anything that names the new segments goes to a peer. */
gsi_status_t gst_ucx_private_seal(char *err, size_t errlen);

/* Forgets the notes of gst_ucx_private_begin. */
void gst_ucx_private_end(void);

#endif
