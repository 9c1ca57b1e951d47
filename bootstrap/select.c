/* bootstrap/select.c - the registry of bootstraps, and the choice of one. */
#include "bootstrap.h"

#include <stdlib.h>
#include <string.h>

const gsb_ops_t *const gsb_all[] = {&gsb_pmix_ops, &gsb_pmi2_ops, &gsb_single_ops, &gsb_uid_ops,
                                    NULL};

/* A PMIx server sets PMIX_NAMESPACE and PMIX_RANK in the environment of every
 * process it launches (mpirun; srun --mpi=pmix). */
static int pmix_launched(void)
{
    return getenv("PMIX_NAMESPACE") && getenv("PMIX_RANK");
}

/* A PMI-2 server (srun --mpi=pmi2) hands each process its socket in PMI_FD,
 * with PMI_RANK and PMI_SIZE. */
static int pmi2_launched(void)
{
    return getenv("PMI_FD") && getenv("PMI_RANK") && getenv("PMI_SIZE");
}

const gsb_ops_t *gsb_select(const char *name)
{
    if (!strcmp(name, "auto")) {
        if (pmix_launched())
            return &gsb_pmix_ops;
        return pmi2_launched() ? &gsb_pmi2_ops : &gsb_single_ops;
    }
    for (int i = 0; gsb_all[i]; i++)
        if (!strcmp(name, gsb_all[i]->name))
            return gsb_all[i];
    gsb_set_error("unknown bootstrap \"%s\"; expected auto, pmix, pmi2, uid or single", name);
    return NULL;
}
