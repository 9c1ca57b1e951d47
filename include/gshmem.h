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

#define GSHMEM_VERSION_MAJOR 0
#define GSHMEM_VERSION_MINOR 1
#define GSHMEM_VERSION_PATCH 0
#define GSHMEM_VERSION_STRING "0.1.0"

#endif /* GSHMEM_H */
