# bootstrap/: how PEs find each other, behind one ops table (bootstrap.h):
# PMIx (mpirun, srun --mpi=pmix), PMI-2 (srun --mpi=pmi2), the unique id (a TCP rendezvous at rank 0 that each
# rank joins by proving it knows the job's secret, with the monitor thread
# that ends the job when a PE dies), a single PE, and an MPI communicator
# (through the plugin below).  Its MACs: crypto/sha256.c, a layer below it.
libgshmem_core_la_SOURCES += bootstrap/bootstrap.h bootstrap/error.c bootstrap/select.c bootstrap/wait.c \
	bootstrap/pmix.c bootstrap/pmi2.c bootstrap/single.c bootstrap/mpi.h bootstrap/mpi.c \
	bootstrap/uid.h bootstrap/uid_int.h bootstrap/uid_boot.c bootstrap/uid_id.c \
	bootstrap/uid_sock.c bootstrap/uid_monitor.c bootstrap/uid_auth.c bootstrap/uid_door.c
libgshmem_core_la_SOURCES += crypto/sha256.h crypto/sha256.c
# Where bootstrap/mpi.c looks for the plugin when it is not beside libgshmem.so.
libgshmem_core_la_CPPFLAGS += -DGSHMEM_LIBDIR='"$(libdir)"'

# The MPI plugin: built with the flags of the mpicc configure found, installed
# beside libgshmem.so (in the build tree too: both in .libs), loaded by
# bootstrap/mpi.c only for GSHMEMX_INIT_WITH_MPI_COMM.
if HAVE_MPI
lib_LTLIBRARIES += gshmem_bootstrap_mpi.la
gshmem_bootstrap_mpi_la_SOURCES = bootstrap/mpi_plugin.c bootstrap/mpi.h
gshmem_bootstrap_mpi_la_CPPFLAGS = $(AM_CPPFLAGS) $(GSI_CPPFLAGS)
gshmem_bootstrap_mpi_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(MPI_CFLAGS)
gshmem_bootstrap_mpi_la_LIBADD = $(MPI_LIBS)
gshmem_bootstrap_mpi_la_LDFLAGS = -module -avoid-version -shared -no-undefined
else
EXTRA_DIST += bootstrap/mpi_plugin.c
endif
