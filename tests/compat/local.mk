# tests/compat: programs written with NVSHMEM's names through the opt-in
# <gshmem/compat/nvshmem.h> (made by scripts/gen_compat.py).  They run on
# host lanes at 1, 2 or 4 PEs, by load/store (.pe) and, through
# tests/pe/net.mk, over the network (.net); compile.sh builds them as CUDA
# (compile only; two linked), and header-current.sh checks the header is
# what the generator writes now.  nvidia-examples.sh (not in make check)
# builds NVIDIA's own examples and perftests through the header.

nv_test_deps = tests/compat/nv_test.h include/gshmem/compat/nvshmem.h

check_PROGRAMS += tests/compat/nv_host tests/compat/nv_device tests/compat/nv_stream \
	tests/compat/nv_status tests/compat/nv_driver tests/compat/nv_v38 tests/compat/nv_hostcoll
tests_compat_nv_host_SOURCES = tests/compat/nv_host.c $(nv_test_deps)
tests_compat_nv_host_LDADD = libgshmem.la
tests_compat_nv_device_SOURCES = tests/compat/nv_device.c $(nv_test_deps)
tests_compat_nv_device_LDADD = libgshmem.la
tests_compat_nv_stream_SOURCES = tests/compat/nv_stream.c $(nv_test_deps)
tests_compat_nv_stream_LDADD = libgshmem.la
tests_compat_nv_status_SOURCES = tests/compat/nv_status.c $(nv_test_deps)
tests_compat_nv_status_LDADD = libgshmem.la
tests_compat_nv_driver_SOURCES = tests/compat/nv_driver.c $(nv_test_deps)
tests_compat_nv_driver_LDADD = libgshmem.la
tests_compat_nv_v38_SOURCES = tests/compat/nv_v38.c $(nv_test_deps)
tests_compat_nv_v38_LDADD = libgshmem.la
tests_compat_nv_hostcoll_SOURCES = tests/compat/nv_hostcoll.c $(nv_test_deps)
tests_compat_nv_hostcoll_LDADD = libgshmem.la

TESTS += \
	tests/compat/nv_host-np1.pe tests/compat/nv_host-np2.pe \
	tests/compat/nv_device-np1.pe tests/compat/nv_device-np2.pe \
	tests/compat/nv_stream-np1.pe tests/compat/nv_stream-np2.pe \
	tests/compat/nv_status-np1.pe tests/compat/nv_status-np2.pe tests/compat/nv_status-np4.pe \
	tests/compat/nv_driver-np1.pe tests/compat/nv_driver-np2.pe tests/compat/nv_driver-np4.pe \
	tests/compat/nv_v38-np1.pe tests/compat/nv_v38-np2.pe \
	tests/compat/nv_hostcoll-np1.pe tests/compat/nv_hostcoll-np2.pe tests/compat/nv_hostcoll-np4.pe \
	tests/compat/header-current.sh tests/compat/compile.sh
EXTRA_DIST += tests/compat/header-current.sh tests/compat/compile.sh scripts/gen_compat.py \
	tests/compat/nvidia-examples.sh
