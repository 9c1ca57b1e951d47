/* mpp/shmemx.h - the deprecated header path of shmemx.h. */
#include "../shmemx.h"
