/* gshmem-info: version, build configuration, bootstraps and transports, and
 * every environment variable with its default, current value and meaning. */
#include <shmemx.h>

int main(void)
{
    return gshmemx_info_print();
}
