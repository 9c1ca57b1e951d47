/* src/core/static_data.h - the program's global and static variables as a
 * symmetric region. */
#ifndef GSI_STATIC_DATA_H
#define GSI_STATIC_DATA_H

#include "core/pe.h"

/* Move the main program's writable segment (.data, .bss), less its RELRO
 * part, onto a memfd, in place, so node peers can map it.  Must run before
 * any other thread exists (so before the bootstrap).  Done once per
 * process; later calls return the same region. */
gsi_status_t gsi_static_data_share(gsi_region_t *region);

#endif
