/* tests/device/culib.h - the shared library of tests/device/culibrary.c: a
 * kernel compiled into a library of its own (culib_kernel.c). */
#ifndef CULIB_H
#define CULIB_H

#include <stdint.h>

/* Runs the library's kernel on 1 x 1 lanes: out[0] = gshmem_my_pe(),
 * out[1] = gshmem_n_pes(), out[2] = gshmem_int_g(word, right neighbour),
 * out[3] = (gshmem_ptr(word, my_pe) == word).  out and word: device heap.
 * Returns what GSHMEM_LAUNCH returned. */
int culib_probe(int *word, int64_t *out);

#endif
