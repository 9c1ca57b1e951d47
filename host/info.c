/* host/info.c - gshmemx_info_print: what gshmem-info and SHMEM_INFO show. */
#include "config.h"
#include "api.h"

#include <stdio.h>

#include "base/env.h"
#include "bootstrap/bootstrap.h"
#include "net/transport.h"
#include "net/verbs/verbs_dev.h"

int pgshmemx_info_print(void)
{
    gsi_env_t env;
    char err[512];

    printf("gshmem %s (OpenSHMEM %d.%d, vendor \"%s\")\n", PACKAGE_VERSION,
           SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, SHMEM_VENDOR_STRING);
    printf("build: %s\n", GSHMEM_CONFIG);
    printf("bootstraps:");
    for (int i = 0; gsb_all[i]; i++)
        printf(" %s", gsb_all[i]->name);
    printf(" (GSHMEM_BOOTSTRAP=auto picks pmix under mpirun or srun --mpi=pmix,\n"
           "  pmi2 under srun --mpi=pmi2, else single)\n");
    /* Not among those GSHMEM_BOOTSTRAP picks: it needs the program's communicator. */
#ifdef GSHMEM_HAVE_MPI_PLUGIN
    printf("  and mpi, for gshmemx_init_attr(GSHMEMX_INIT_WITH_MPI_COMM): the plugin "
           "gshmem_bootstrap_mpi.so, built\n");
#else
    printf("  and mpi, for gshmemx_init_attr(GSHMEMX_INIT_WITH_MPI_COMM): its plugin is not "
           "built (no mpicc at configure)\n");
#endif
#ifdef GSHMEM_HAVE_UCX
    printf("transports: p2p (same host: load/store on memfd mappings), %s (other hosts, "
           "or all peers with GSHMEM_DISABLE_P2P=1)\n",
           gst_ucx_ops.name);
#else
    printf("transports: p2p (same host: load/store on memfd mappings); no network transport "
           "(build with libucx-dev for UCX)\n");
#endif
    {
        char devices[1024];

        gst_verbs_describe(devices, sizeof(devices));
        printf("verbs (GSHMEM_TRANSPORT=verbs, or auto where every PE has an active RDMA "
               "port): %s\n",
               devices);
    }
    printf("node (GSHMEM_TRANSPORT=node, every PE on this host): peers' memory mapped here, "
           "copies and atomics on the mappings (cuMemcpyAsync for GPU memory)\n");
    printf("\nenvironment variables:\n");
    if (gsi_env_load(&env, NULL, err, sizeof(err)) != GSI_OK) {
        printf("gshmem: %s\n", err);
        return 1;
    }
    gsi_env_print(stdout, &env);
    return 0;
}
GSI_ALIAS(gshmemx_info_print)
