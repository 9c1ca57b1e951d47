# tests/compat: programs written with NVSHMEM's names through the opt-in
# <gshmem/compat/nvshmem.h> (made by scripts/gen_compat.py).  They run on
# host lanes at 1, 2 or 4 PEs, by load/store (.pe) and, through
# tests/pe/net.mk, over the network (.net); compile.sh builds them as CUDA
# (compile only; some linked), and header-current.sh checks the header is
# what the generator writes now.  nvidia-examples.sh (not in make check)
# builds NVIDIA's own examples and perftests through the header.
# The nv_mpi_ programs start NVSHMEM on an MPI communicator (the world, a
# reordered one, the halves of a split); in a build without MPI they are
# tests/compat/no_mpi.c, a skip.  The bad_ ones check the refusals of the
# MPI and OpenSHMEM init flags (tests/pe/run-pe: one line, a nonzero exit).

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

check_PROGRAMS += tests/compat/nv_mpi_init tests/compat/nv_mpi_split tests/compat/nv_shmem_init \
	tests/compat/bad_mpi_comm_null tests/compat/bad_mpi_no_plugin tests/compat/bad_mpi_not_init \
	tests/compat/bad_shmem_not_init tests/compat/bad_mpi_wait
if HAVE_MPI
tests_compat_nv_mpi_init_SOURCES = tests/compat/nv_mpi_init.c $(nv_test_deps)
tests_compat_nv_mpi_init_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_compat_nv_mpi_init_LDADD = libgshmem.la $(MPI_LIBS)
tests_compat_nv_mpi_split_SOURCES = tests/compat/nv_mpi_split.c $(nv_test_deps)
tests_compat_nv_mpi_split_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_compat_nv_mpi_split_LDADD = libgshmem.la $(MPI_LIBS)
tests_compat_bad_mpi_not_init_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) -DNV_TEST_HAVE_MPI
tests_compat_bad_mpi_not_init_LDADD = libgshmem.la $(MPI_LIBS)
tests_compat_bad_mpi_wait_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS) -DNV_TEST_HAVE_MPI
tests_compat_bad_mpi_wait_LDADD = libgshmem.la $(MPI_LIBS)
EXTRA_DIST += tests/compat/no_mpi.c
else
tests_compat_nv_mpi_init_SOURCES = tests/compat/no_mpi.c
tests_compat_nv_mpi_split_SOURCES = tests/compat/no_mpi.c
tests_compat_bad_mpi_not_init_LDADD = libgshmem.la
tests_compat_bad_mpi_wait_LDADD = libgshmem.la
EXTRA_DIST += tests/compat/nv_mpi_init.c tests/compat/nv_mpi_split.c
endif
tests_compat_bad_mpi_not_init_SOURCES = tests/compat/bad_mpi_not_init.c
tests_compat_bad_mpi_wait_SOURCES = tests/compat/bad_mpi_wait.c
tests_compat_nv_shmem_init_SOURCES = tests/compat/nv_shmem_init.c $(nv_test_deps)
tests_compat_nv_shmem_init_LDADD = libgshmem.la
tests_compat_bad_mpi_comm_null_LDADD = libgshmem.la
tests_compat_bad_mpi_no_plugin_LDADD = libgshmem.la
tests_compat_bad_shmem_not_init_LDADD = libgshmem.la

TESTS += \
	tests/compat/nv_host-np1.pe tests/compat/nv_host-np2.pe \
	tests/compat/nv_device-np1.pe tests/compat/nv_device-np2.pe \
	tests/compat/nv_stream-np1.pe tests/compat/nv_stream-np2.pe \
	tests/compat/nv_status-np1.pe tests/compat/nv_status-np2.pe tests/compat/nv_status-np4.pe \
	tests/compat/nv_driver-np1.pe tests/compat/nv_driver-np2.pe tests/compat/nv_driver-np4.pe \
	tests/compat/nv_v38-np1.pe tests/compat/nv_v38-np2.pe \
	tests/compat/nv_hostcoll-np1.pe tests/compat/nv_hostcoll-np2.pe tests/compat/nv_hostcoll-np4.pe \
	tests/compat/nv_mpi_init-np1.pe tests/compat/nv_mpi_init-np2.pe \
	tests/compat/nv_mpi_init-np4.pe \
	tests/compat/nv_mpi_split-np1.pe tests/compat/nv_mpi_split-np2.pe \
	tests/compat/nv_mpi_split-np4.pe \
	tests/compat/nv_shmem_init-np1.pe tests/compat/nv_shmem_init-np2.pe \
	tests/compat/nv_shmem_init-np4.pe \
	tests/compat/bad_mpi_comm_null-np2.pe tests/compat/bad_mpi_no_plugin-np2.pe \
	tests/compat/bad_mpi_not_init-np2.pe tests/compat/bad_shmem_not_init-np2.pe \
	tests/compat/bad_mpi_wait-np2.pe \
	tests/compat/header-current.sh tests/compat/compile.sh
EXTRA_DIST += tests/compat/header-current.sh tests/compat/compile.sh scripts/gen_compat.py \
	tests/compat/nvidia-examples.sh
