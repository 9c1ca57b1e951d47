/* src/core/localbuf.h - local buffers the program registers
 * (gshmemx_buffer_register): any memory of this process, made usable by
 * the network transport as a registered local source or destination of
 * RMA.  Load/store peers need nothing: every local address works there.
 * The table keeps registrations from overlapping, so a later unregister
 * names exactly one.  Local, not collective; any thread. */
#ifndef GSI_LOCALBUF_H
#define GSI_LOCALBUF_H

#include <stddef.h>

#include "base/status.h"

/* GSI_ERR_INVALID (err says why): len 0, NULL, a range that wraps, one not
 * all mapped in this process, or one that overlaps a registered buffer; GSI_ERR_NOMEM; or the transport's
 * failure. */
gsi_status_t gsi_localbuf_add(void *addr, size_t len, char *err, size_t errlen);
/* GSI_ERR_INVALID when addr starts no registered buffer. */
gsi_status_t gsi_localbuf_remove(void *addr);
/* Every registered buffer (gshmemx_buffer_unregister_all, and finalize
 * before the transport goes). */
void gsi_localbuf_remove_all(void);

#endif
