/*
 * gshmem_device.h - the gshmem device API: NVSHMEM's device interface with
 * nvshmem_ -> gshmem_, nvshmemx_ -> gshmemx_, NVSHMEM_ -> GSHMEM_, and the
 * same arguments.  One source for two backends: nvcc compiles it into CUDA
 * device functions; a C99 or C++11 compiler into inline functions that run
 * on host threads (host lanes, GSHMEM_KERNEL / GSHMEM_LAUNCH).
 *
 *   gsd/ptr.h     gshmem_my_pe, gshmem_n_pes, gshmem_ptr, gshmemx_n_channels
 *   gsd/rma.h     put, get, p, g, iput, iget (+ _nbi, _warp, _block, _ch)
 *   gsd/signal.h  put_signal, signal_op, signal_fetch, signal_wait_until
 *   gsd/amo.h     atomics
 *   gsd/wait.h    wait_until and test families
 *   gsd/order.h   gshmem_quiet, gshmem_fence (+ _ch)
 *   gsd/kernel.h  GSHMEM_KERNEL, GSHMEM_LAUNCH, gshmemx_thread_id, ...
 *   gsd/team.h, gsd/coll.h  teams and collectives in device code
 *   gsd/setup.h   info queries, gshmem_global_exit, gshmemx_mc_ptr (device and host)
 *   gsd/host_api.h  gshmem_malloc, gshmem_free, ... (host code)
 *   gsd/stream.h  the *_on_stream host routines (last: it uses the others)
 * Each header lists the names it defines.  Everything under gsd/ named
 * gsd_ is internal.
 */
#ifndef GSHMEM_DEVICE_H
#define GSHMEM_DEVICE_H

#if defined(__CUDACC__) && !defined(__CUDACC_RDC__)
/* Device code that calls the device API must be relocatable (nvcc
 * -rdc=true, as gshmemcc compiles .cu files): it refers to the device state
 * defined in libgshmem_device.a.  Without -rdc only the host routines are
 * declared. */
#include "gsd/cdefs.h"
#include "gsd/host_api.h"
#else
#include "gsd/cdefs.h"
#include "gsd/state.h"
#include "gsd/channel.h"
#include "gsd/arch.h"
#include "gsd/fatal.h"
#include "gsd/poll.h"
#include "gsd/proxy.h"
#include "gsd/kernel.h"
#include "gsd/rows.h"
#include "gsd/group.h"
#include "gsd/path.h"
#include "gsd/ptr.h"
#include "gsd/order.h"
#include "gsd/rma.h"
#include "gsd/amo.h"
#include "gsd/amo_float.h"
#include "gsd/wait.h"
#include "gsd/signal.h"
#include "gsd/team.h"
#include "gsd/coll.h"
#include "gsd/setup.h"
#include "gsd/region.h"
#include "gsd/host_api.h"
#include "gsd/stream.h"
#endif

#endif /* GSHMEM_DEVICE_H */
