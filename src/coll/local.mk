# src/coll/: teams and contexts, the library's sync area, barriers and the
# collectives engine.
libgshmem_core_la_SOURCES += src/coll/team.h src/coll/team.c src/coll/team_init.c src/coll/ctx.h src/coll/ctx.c \
	src/coll/sync.h src/coll/barrier.c src/coll/coll.h src/coll/coll_group.c \
	src/coll/coll_engine.h src/coll/coll_sig.h src/coll/coll_sync.c \
	src/coll/coll_bcast.c src/coll/coll_collect.c src/coll/coll_alltoall.c \
	src/coll/coll_reduce.h src/coll/coll_reduce.c src/coll/coll_check.c
