/*
 * shmemx.h - gshmem extensions to OpenSHMEM (shmemx_ prefix).
 *
 * Each extension is declared here with its pshmem-style twin (pgshmemx_...),
 * which the library defines; the plain name is a weak alias of it.
 */
#ifndef GSHMEM_SHMEMX_H
#define GSHMEM_SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Print the version, build configuration, bootstraps, transports and every
 * environment variable (default, current value, meaning) to stdout; needs no
 * shmem_init.  Returns 0, or 1 when a variable holds a bad value. */
int gshmemx_info_print(void);
int pgshmemx_info_print(void);

#ifdef __cplusplus
}
#endif

#endif /* GSHMEM_SHMEMX_H */
