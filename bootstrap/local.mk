# bootstrap/: how PEs find each other, behind one ops table (bootstrap.h):
# PMIx (mpirun, srun --mpi=pmix), PMI-2 (srun --mpi=pmi2), the unique id (a TCP rendezvous at rank 0 that each
# rank joins by proving it knows the job's secret, with the monitor thread
# that ends the job when a PE dies), and a single PE.  Its MACs:
# crypto/sha256.c, a layer below it.
libgshmem_core_la_SOURCES += bootstrap/bootstrap.h bootstrap/error.c bootstrap/select.c bootstrap/wait.c \
	bootstrap/pmix.c bootstrap/pmi2.c bootstrap/single.c \
	bootstrap/uid.h bootstrap/uid_int.h bootstrap/uid_boot.c bootstrap/uid_id.c \
	bootstrap/uid_sock.c bootstrap/uid_monitor.c bootstrap/uid_auth.c bootstrap/uid_door.c
libgshmem_core_la_SOURCES += crypto/sha256.h crypto/sha256.c
