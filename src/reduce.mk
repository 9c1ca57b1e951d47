# reduce sources of the collectives engine (issue 3): appends to libgshmem_core_la_SOURCES
# The engine (src/coll_reduce.c) and the entry points of the team reductions,
# scans (host/reduce.c) and deprecated _to_all (host/reduce_toall.c).
libgshmem_core_la_SOURCES += src/coll_reduce.h src/coll_reduce.c \
	host/reduce_ops.h host/reduce.c host/reduce_toall.c
