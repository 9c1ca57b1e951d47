/* src/gpu/lanes.h - the host-lane launcher (src/gpu/lanes.c): device code
 * runs on pooled host threads, blocks x threads per launch; the launch
 * entry points device code calls are in device/gsd/host_api.h. */
#ifndef GSI_LANES_H
#define GSI_LANES_H

/* Stop the pooled lane threads (device API finalize). */
void gsi_lanes_fini(void);

#endif
