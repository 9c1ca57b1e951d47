/*
 * gshmem.h - everything gshmem offers to programs: the OpenSHMEM API and
 * the gshmem extensions, the device API (gshmem_device.h: CUDA device
 * functions under nvcc, inline host-lane functions otherwise), plus the
 * gshmem release number.
 */
#ifndef GSHMEM_H
#define GSHMEM_H

#include "shmem.h"
#include "shmemx.h"
#include "gshmem_device.h"

/* GSHMEM_VERSION_MAJOR, _MINOR, _PATCH, _STRING: gshmem/constants.h. */

#endif /* GSHMEM_H */
