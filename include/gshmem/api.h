/*
 * gshmem/api.h - every OpenSHMEM 1.6 routine (deprecated ones included), as
 * one list.
 *
 * No include guard, on purpose: this is an X-macro list kept in headers.
 * Each routine is one row GSHMEM_DECL(ret, name, (params)); the file that
 * includes this one decides what a row becomes by defining GSHMEM_DECL:
 *
 *   shmem.h    #define GSHMEM_DECL(ret, name, params) ret name params;
 *   pshmem.h   #define GSHMEM_DECL(ret, name, params) ret p##name params;
 *
 * so the API and its profiling twins (pshmem_long_put, p_my_pe, ...) come
 * from the same rows.  The chapter files in api/ can also be included one
 * at a time, e.g. after the pshmem_ definitions of a chapter, to make each
 * shmem_ name a weak alias of its twin (GCC and clang; tested):
 *
 *   #define GSHMEM_DECL(ret, name, params) \
 *       extern __typeof__(p##name) name __attribute__((weak, alias("p" #name)));
 *   #include "gshmem/api/lock.h"
 *
 * The includer #undefs GSHMEM_DECL afterwards.  Rows that name a routine
 * and its context twin go through GSHMEM_DECL_CTX (gshmem/shapes.h), which
 * expands to two GSHMEM_DECL rows.
 *
 * Typed families are rows expanded over the type lists of typetable.h; the
 * generated names are checked against openshmem-1.6-symbols.txt by
 * tests/header/decls.sh.
 */
#ifndef GSHMEM_DECL
#error "define GSHMEM_DECL(ret, name, params) before including gshmem/api.h"
#endif

#include "cdefs.h"
#include "shapes.h"
#include "typetable.h"
#include "types.h"

#include "api/setup.h"
#include "api/mem.h"
#include "api/team.h"
#include "api/ctx.h"
#include "api/rma.h"
#include "api/amo.h"
#include "api/signal.h"
#include "api/coll.h"
#include "api/p2p.h"
#include "api/order.h"
#include "api/lock.h"
