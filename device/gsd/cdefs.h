/*
 * gsd/cdefs.h - how device code is compiled: by nvcc into CUDA device
 * functions (the GPU backend), or by the C/C++ compiler into plain inline
 * functions that run on host threads (the host-lane backend, DESIGN.md).
 *
 *   GSD_FN     an inline device-API function (every gsd/ and gshmem_ one)
 *   GSD_STATE  this PE's device state (gsd/state.h): a __constant__ copy
 *              on the GPU, the library's own object on host lanes
 *   GSD_CUDA / GSD_HOSTLANE   which backend this translation unit is
 */
#ifndef GSD_CDEFS_H
#define GSD_CDEFS_H

#if defined(__CUDACC__)
#define GSD_CUDA 1
#define GSD_FN static __device__ __forceinline__
#define GSD_STATE gsd_state_d
#else
#define GSD_HOSTLANE 1
#define GSD_FN static inline
#define GSD_STATE gshmemi_state
#endif

#if defined(__cplusplus)
#define GSD_EXTERN_C extern "C"
#define GSD_BEGIN_C extern "C" {
#define GSD_END_C }
#else
#define GSD_EXTERN_C extern
#define GSD_BEGIN_C
#define GSD_END_C
#endif

#if defined(__cplusplus)
#define GSD_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define GSD_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

#define GSD_LIKELY(x) __builtin_expect(!!(x), 1)
#define GSD_UNLIKELY(x) __builtin_expect(!!(x), 0)

#endif /* GSD_CDEFS_H */
