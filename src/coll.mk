# coll sources of the collectives engine (issue 3): appends to libgshmem_core_la_SOURCES
libgshmem_core_la_SOURCES += src/coll_engine.h src/coll_sig.h src/coll_sync.c \
	src/coll_bcast.c src/coll_collect.c src/coll_alltoall.c host/coll.c
