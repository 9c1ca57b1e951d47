/*
 * gshmem/cdefs.h - language glue shared by the public headers.
 *
 * The headers are valid C99, C11, C17, C23 and C++11; the few places where
 * those languages spell something differently are named here once.
 */
#ifndef GSHMEM_CDEFS_H
#define GSHMEM_CDEFS_H

/* shmem_global_exit never returns.  In GNU C++ the attribute form is used
 * because clang rejects [[noreturn]] after __extension__ (see below). */
#if defined(__cplusplus) && defined(__GNUC__)
#define GSHMEM_NORETURN __attribute__((__noreturn__))
#elif defined(__cplusplus) && __cplusplus >= 201103L
#define GSHMEM_NORETURN [[noreturn]]
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L
#define GSHMEM_NORETURN [[noreturn]]
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define GSHMEM_NORETURN _Noreturn
#elif defined(__GNUC__)
#define GSHMEM_NORETURN __attribute__((__noreturn__))
#else
#define GSHMEM_NORETURN
#endif

/* The reductions take C99 `double _Complex` and `float _Complex`, which C++
 * compilers accept only as an extension; __extension__ keeps -pedantic
 * quiet about it. */
#if defined(__cplusplus) && defined(__GNUC__)
#define GSHMEM_EXTENSION __extension__
#else
#define GSHMEM_EXTENSION
#endif

/* C11 _Generic selections (gshmem/generic_c11.h) or C++ overloads
 * (gshmem/generic_cxx.h) provide the type-generic names (shmem_put, ...).
 * Define GSHMEM_NO_GENERIC before including shmem.h to get the plain C
 * declarations only, e.g. to take the address of shmem_sync in C++. */
#if !defined(GSHMEM_NO_GENERIC) && defined(__cplusplus)
#define GSHMEM_HAVE_CXX_OVERLOADS 1
#elif !defined(GSHMEM_NO_GENERIC) && defined(__STDC_VERSION__) &&              \
    __STDC_VERSION__ >= 201112L
#define GSHMEM_HAVE_C11_GENERIC 1
#endif

#endif /* GSHMEM_CDEFS_H */
