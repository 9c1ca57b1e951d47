/* tests/device/culib_kernel.c - libculib: device code that lives in a
 * shared library of its own, as libgshmem_moe's kernels or a Python
 * extension's do (tests/device/culibrary.c). */
#include <gshmem.h>
#include <gshmem_device.h>

#include "culib.h"

typedef struct probe_args {
    int *word;
    int64_t *out;
} probe_args_t;

GSHMEM_KERNEL(culib_probe_kernel, probe_args_t, a)
{
    int me = gshmem_my_pe(), n = gshmem_n_pes();

    a.out[0] = me;
    a.out[1] = n;
    a.out[2] = gshmem_int_g(a.word, (me + 1) % n);
    a.out[3] = gshmem_ptr(a.word, me) == (void *)a.word;
}

int culib_probe(int *word, int64_t *out)
{
    probe_args_t a = {word, out};

    return GSHMEM_LAUNCH(culib_probe_kernel, 1, 1, a);
}
