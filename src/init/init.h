/* src/init/init.h - bring the library up and down (refcounted, as
 * OpenSHMEM 1.6 allows several calls).  The top of src/: it runs every
 * layer below in order. */
#ifndef GSI_INIT_H
#define GSI_INIT_H

struct gsb_ops;

/* boot: the bootstrap to use with its args, or NULL to choose one from
 * GSHMEM_BOOTSTRAP and the launcher's environment. */
void gsi_init(const char *fn, int requested_thread_level, const struct gsb_ops *boot,
              const void *boot_args);
void gsi_finalize(const char *fn);

#endif
