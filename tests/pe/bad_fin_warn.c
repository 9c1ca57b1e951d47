/*
 * tests/pe/bad_fin_warn.c - the GSHMEM_WAIT_WARN line says where the other
 * PEs were last seen: the last PE finalizes while PE 0 waits in
 * shmem_wait_until, and PE 0's "still waiting" line after 1 s names the
 * call the finalizing PE is in (then failure propagation ends the job).
 */
/* EXPECT: gshmem: PE 0: shmem_int_wait_until: still waiting after 1 s for .*; PE [0-9]+ last seen in shmem_finalize */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

static int flag;

int main(void)
{
    setenv("GSHMEM_WAIT_WARN", "1", 1);
    if (bad_fin_start("bad_fin_warn"))
        return bad_fin_finalize("bad_fin_warn");
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    return bad_fin_returned("bad_fin_warn", "shmem_int_wait_until");
}
