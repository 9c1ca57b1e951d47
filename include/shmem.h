/*
 * shmem.h - the OpenSHMEM 1.6 C/C++ API of gshmem.
 *
 * Every routine of the specification is declared, deprecated ones included
 * (and the pre-1.2 and cache routines legacy codes still call).  The
 * routines are listed once, in gshmem/api.h; this file binds each row to a
 * plain declaration, pshmem.h binds the same rows to the pshmem_ profiling
 * names.  Then come the type-generic names: _Generic macros in C11 and
 * later, overloads in C++.
 */
#ifndef GSHMEM_SHMEM_H
#define GSHMEM_SHMEM_H

#include "gshmem/cdefs.h"
#include "gshmem/constants.h"
#include "gshmem/shapes.h"
#include "gshmem/typetable.h"
#include "gshmem/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The type-generic macros share names with two deprecated routines
 * (shmem_wait_until, shmem_sync) and two current ones (shmem_signal_add,
 * shmem_signal_set), so the rows must be expanded before those macros
 * exist: a row `void shmem_sync (...)` would otherwise call the macro. */
#define GSHMEM_DECL(ret, name, params) GSHMEM_EXTENSION ret name params;
#include "gshmem/api.h"
#undef GSHMEM_DECL

#ifdef __cplusplus
}
#endif

#if defined(GSHMEM_HAVE_C11_GENERIC)
#include "gshmem/generic_c11.h"
#elif defined(GSHMEM_HAVE_CXX_OVERLOADS)
#include "gshmem/generic_cxx.h"
#endif

#endif /* GSHMEM_SHMEM_H */
