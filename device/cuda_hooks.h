/*
 * device/cuda_hooks.h - the contract between libgshmem_device.a (linked
 * into the program, compiled by nvcc) and libgshmem.so (which links no CUDA
 * library).  Not installed: programs never see it.
 *
 * Why a callback: device code reads this PE's state from a __constant__
 * variable, gsd_state_d, defined in the archive (device/state.cu).  After
 * the device link it lives in the program's own CUDA module, so only code
 * of that module can write it (cudaMemcpyToSymbol needs the module's
 * registration of the symbol).  So the archive hands libgshmem.so a small
 * table of functions, from a constructor of device/state.cu that runs when
 * the program (or a shared object built with the archive) is loaded, and
 * libgshmem.so calls them with the primary context of its GPU current.
 *
 * Why the constructor's object is linked at all: a linker takes a member
 * of a static archive only when something refers to one of its symbols.
 * Every CUDA translation unit that includes gshmem_device.h holds a
 * reference to gsd_needs_libgshmem_device_a (gsd/cuda_host.h), which
 * state.cu defines, so the member (constructor, hooks and gsd_state_d) is
 * always linked; a program that forgets the archive fails to link with an
 * undefined reference of that name rather than failing at run time.
 *
 * Several modules may register (the program and shared objects built with
 * the archive, e.g. Python extensions): libgshmem.so publishes the state
 * into every one, and into a module registered after gshmem_init at once.
 */
#ifndef GSD_CUDA_HOOKS_H
#define GSD_CUDA_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "gsd/state.h"

#define GSD_CUDA_HOOKS_VERSION 1u

typedef struct gsd_cuda_hooks {
    uint32_t version;    /* GSD_CUDA_HOOKS_VERSION */
    uint32_t state_size; /* sizeof(gsd_state_t) the module was built with */
    /* Copy *s into the module's gsd_state_d, on the current context, and
     * wait for the copy.  0, or a cudaError_t. */
    int (*publish)(const gsd_state_t *s);
    /* The CUDA runtime's name for an error that publish returned. */
    const char *(*error_string)(int err);
} gsd_cuda_hooks_t;

#if defined(__cplusplus)
extern "C" {
#endif
/* Exported by libgshmem.so (built with CUDA support); called by the
 * archive's constructor and destructor.  hooks must stay valid until it is
 * unregistered. */
void gshmemi_cuda_register(const gsd_cuda_hooks_t *hooks);
void gshmemi_cuda_unregister(const gsd_cuda_hooks_t *hooks);
/* Make the PE's GPU context current on the calling thread (cheap after the
 * first call on a thread); a no-op before gshmem_init.  The archive calls
 * it before every launch and copy. */
void gshmemi_cuda_bind(void);
/* The status device code's gshmem_global_exit asked for, or -1 (also in
 * gsd/setup.h): the archive's error paths ask it before they end the job. */
int gshmemi_exit_requested(void);
#if defined(__cplusplus)
}
#endif

#endif /* GSD_CUDA_HOOKS_H */
