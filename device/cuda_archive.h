/*
 * device/cuda_archive.h - what the members of libgshmem_device.a share
 * (host side; not installed): this PE's number as last published, and the
 * one-line reports of the host routines.  Hidden: a program and a shared
 * object that both link the archive keep their own copies.
 */
#ifndef GSD_CUDA_ARCHIVE_H
#define GSD_CUDA_ARCHIVE_H

#include <cuda_runtime.h>

/* This PE's number from the last state libgshmem.so published (state.cu);
 * -1 before gshmem_init. */
__attribute__((visibility("hidden"))) int gsd_cuda_my_pe(void);

/* "gshmem: PE <n>: fn: <formatted>" on stderr. */
__attribute__((visibility("hidden"))) void gsd_cuda_report(const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* After a kernel launch of routine fn: a launch error is reported and ends
 * the job (the *_on_stream routines return nothing to check). */
__attribute__((visibility("hidden"))) void gsd_cuda_check_launch(const char *fn);

/* Ends the job after an error a host routine saw: with the status device
 * code's gshmem_global_exit asked for, when it did (its trap is the error),
 * else 1. */
__attribute__((visibility("hidden"), noreturn)) void gsd_cuda_exit_failed(void);

#endif /* GSD_CUDA_ARCHIVE_H */
