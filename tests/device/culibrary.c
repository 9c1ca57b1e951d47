/*
 * tests/device/culibrary.c - gshmemx_culibrary_init / _finalize and
 * gshmemx_cumodule_init / _finalize: a kernel inside a shared library of
 * its own (libculib, culib_kernel.c), after the library is initialized,
 * sees this PE's number, the job's size and the same heap (it reads the
 * right neighbour's word, and gshmem_ptr of this PE's word is the word);
 * each init returns 0 and its finalize too, the same handle as a module
 * and as a library are two entries, and after finalize it may be
 * initialized again.  (On host lanes the state is libgshmem.so's one copy;
 * on a GPU, tests/gpu runs this with the library device-linked on its own.)
 */
#include <dlfcn.h>
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>
#include <stdlib.h>

#include "culib.h"

static int fails;

#define CHECK(what, got, want)                                                                 \
    do {                                                                                       \
        long long g_ = (long long)(got), w_ = (long long)(want);                               \
        if (g_ != w_) {                                                                        \
            fprintf(stderr, "culibrary: PE %d: %s: got %lld, want %lld\n", me, what, g_, w_);  \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

int main(void)
{
    int me, n, *word, rc;
    int64_t *out, got[4];
    void *lib;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    word = (int *)gshmem_calloc(1, sizeof(int));
    out = (int64_t *)gshmem_calloc(4, sizeof(int64_t));
    if (!word || !out) {
        fprintf(stderr, "culibrary: PE %d: no heap\n", me);
        return 1;
    }
    rc = 100 + me;
    gshmemx_memcpy_to_device(word, &rc, sizeof rc);
    shmem_barrier_all();

    /* The loaded library's handle: what cuLibraryLoad would give on a GPU. */
    lib = dlopen("libculib.so", RTLD_NOW | RTLD_NOLOAD);
    if (lib == NULL) {
        fprintf(stderr, "culibrary: PE %d: libculib.so is not loaded: %s\n", me, dlerror());
        return 1;
    }
    CHECK("gshmemx_culibrary_init", gshmemx_culibrary_init(lib), 0);
    CHECK("gshmemx_cumodule_init (same handle, as a module)", gshmemx_cumodule_init(lib), 0);
    CHECK("the library's launch", culib_probe(word, out), 0);
    gshmemx_memcpy_from_device(got, out, sizeof got);
    CHECK("gshmem_my_pe in the library", got[0], me);
    CHECK("gshmem_n_pes in the library", got[1], n);
    CHECK("gshmem_int_g of the right neighbour's word", got[2], 100 + (me + 1) % n);
    CHECK("gshmem_ptr(word, my_pe) == word", got[3], 1);
    CHECK("gshmemx_cumodule_finalize", gshmemx_cumodule_finalize(lib), 0);
    CHECK("gshmemx_culibrary_finalize", gshmemx_culibrary_finalize(lib), 0);
    CHECK("gshmemx_culibrary_init again", gshmemx_culibrary_init(lib), 0);
    CHECK("gshmemx_culibrary_finalize again", gshmemx_culibrary_finalize(lib), 0);

    shmem_barrier_all();
    gshmem_free(out);
    gshmem_free(word);
    shmem_finalize();
    if (me == 0)
        printf("culibrary: %s\n", fails ? "FAIL" : "ok");
    return fails ? 1 : 0;
}
