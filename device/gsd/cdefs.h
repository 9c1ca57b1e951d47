/*
 * gsd/cdefs.h - how device code is compiled: by nvcc into CUDA device
 * functions (the GPU backend), or by the C/C++ compiler into plain inline
 * functions that run on host threads (the host-lane backend, DESIGN.md).
 *
 *   GSD_FN     an inline device-API function (every gsd/ and gshmem_ one)
 *   GSD_HD     one that host code may call too (see GSD_NVCC_HOST_PASS below)
 *   GSD_STATE  this PE's device state (gsd/state.h): a __constant__ copy
 *              on the GPU, the library's own object on host lanes
 *   GSD_CUDA / GSD_HOSTLANE   which backend this translation unit is
 */
#ifndef GSD_CDEFS_H
#define GSD_CDEFS_H

#if defined(__CUDACC__)
#define GSD_CUDA 1
#define GSD_FN static __device__ __forceinline__
#define GSD_HD static __host__ __device__ __forceinline__
#define GSD_STATE gsd_state_d
#else
#define GSD_HOSTLANE 1
#define GSD_FN static inline
#define GSD_HD static inline
#define GSD_STATE gshmemi_state
#endif

/* GSD_HD functions are callable from host code as well (NVSHMEM's
 * __host__ __device__ routines).  Their host part calls the library, their
 * device part reads the device state.  nvcc compiles each pass with one
 * part only (GSD_NVCC_HOST_PASS: the host pass); host lanes compile both
 * and choose at run time: a thread a host-lane launch started has
 * gshmemi_lane_self, host code has none. */
#if defined(__CUDACC__) && !defined(__CUDA_ARCH__)
#define GSD_NVCC_HOST_PASS 1
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
