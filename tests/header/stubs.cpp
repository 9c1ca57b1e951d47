/*
 * stubs.cpp - a stand-in for libgshmem in the header tests: every routine
 * of gshmem/api.h, each recording its own name in gshmem_test_last_call and
 * returning zero, plus the predefined team and context objects.
 *
 * Built from the same rows as shmem.h, with GSHMEM_DECL bound to a
 * definition.  C++ only because `return T();` gives a zero of any return
 * type, void included.  shmem_global_exit returns here, so the rows are
 * read without GSHMEM_NORETURN.
 */
#include "gshmem/cdefs.h"
#include "gshmem/shapes.h"
#include "gshmem/typetable.h"
#include "gshmem/types.h"

#undef GSHMEM_NORETURN
#define GSHMEM_NORETURN

struct gshmem_ctx {
    int unused;
};
struct gshmem_team {
    int unused;
};

extern "C" {
const char *gshmem_test_last_call;
struct gshmem_ctx gshmem_ctx_default;
struct gshmem_team gshmem_team_world, gshmem_team_shared;
}

template <typename T> static T stub_zero()
{
    return T();
}
template <> void stub_zero<void>()
{
}

#define GSHMEM_DECL(ret, name, params)                                        \
    extern "C" GSHMEM_EXTENSION ret name params                               \
    {                                                                         \
        gshmem_test_last_call = #name;                                        \
        return stub_zero<ret>();                                              \
    }
#include "gshmem/api.h"
#undef GSHMEM_DECL
