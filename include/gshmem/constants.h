/*
 * gshmem/constants.h - the library constants of OpenSHMEM 1.6 (spec
 * "Library Constants"), each deprecated _SHMEM_ spelling defined as its
 * current name so the two never disagree.
 */
#ifndef GSHMEM_CONSTANTS_H
#define GSHMEM_CONSTANTS_H

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "gshmem " GSHMEM_VERSION_STRING

/* The gshmem release (gshmem.h; here so that the device API's
 * gshmemx_vendor_get_version_info sees it without the host headers). */
#define GSHMEM_VERSION_MAJOR 0
#define GSHMEM_VERSION_MINOR 1
#define GSHMEM_VERSION_PATCH 0
#define GSHMEM_VERSION_STRING "0.1.0"

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* Comparison operators of the point-to-point synchronization routines. */
#define SHMEM_CMP_EQ 1
#define SHMEM_CMP_NE 2
#define SHMEM_CMP_GT 3
#define SHMEM_CMP_LE 4
#define SHMEM_CMP_LT 5
#define SHMEM_CMP_GE 6

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* Option and hint bit masks (the argument types are long). */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0) /* config_mask bit */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)     /* options bit */

/* Deprecated active-set collectives: pSync and pWrk sizes. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 64
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16

/* Deprecated spellings.  The spec lists _SHMEM_ forms of SYNC_VALUE,
 * {BARRIER,BCAST,COLLECT,REDUCE}_SYNC_SIZE, REDUCE_MIN_WRKDATA_SIZE, the
 * version and vendor constants and CMP_*; the others are here so every
 * SHMEM_ constant above has one. */
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING
#define _SHMEM_THREAD_SINGLE SHMEM_THREAD_SINGLE
#define _SHMEM_THREAD_FUNNELED SHMEM_THREAD_FUNNELED
#define _SHMEM_THREAD_SERIALIZED SHMEM_THREAD_SERIALIZED
#define _SHMEM_THREAD_MULTIPLE SHMEM_THREAD_MULTIPLE
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

#endif /* GSHMEM_CONSTANTS_H */
