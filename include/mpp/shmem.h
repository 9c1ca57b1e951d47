/* mpp/shmem.h - the deprecated header path (spec: still supported). */
#include "../shmem.h"
