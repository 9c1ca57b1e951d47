/* src/net/verbs/verbs_dmabuf.h - the one CUDA driver call the GPU heap's
 * registration needs, replaceable by a fake for the unit test
 * (tests/unit/verbs_dmabuf.c). */
#ifndef GST_VERBS_DMABUF_H
#define GST_VERBS_DMABUF_H

#include <stddef.h>

/* cuMemGetHandleForAddressRange's signature (returns a CUresult). */
typedef int (*gst_verbs_get_handle_fn_t)(void *handle, unsigned long long dptr, size_t size,
                                         int handle_type, unsigned long long flags);

/* Use fn instead of the driver's (NULL: as if the driver lacked it). */
void gst_verbs_dmabuf_set_driver(gst_verbs_get_handle_fn_t fn);

#endif
