/* src/net/verbs/verbs_dev.h - what the rest of gshmem sees of the verbs
 * transport besides its ops table (gst_verbs_ops, net/transport.h). */
#ifndef GST_VERBS_H
#define GST_VERBS_H

#include <stddef.h>

/* 1 where this PE has an RDMA device with an active port (the one
 * GSHMEM_HCA names, if set): what GSHMEM_TRANSPORT=auto votes with. */
int gst_verbs_usable(const char *hca);

/* The devices found, one phrase each, for gshmem-info. */
void gst_verbs_describe(char *buf, size_t len);

#endif
