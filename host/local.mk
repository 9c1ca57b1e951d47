# host/: the OpenSHMEM entry points, one file per chapter of the
# specification (and host/device.c, uid.c for gshmem's own): argument
# checks, then the layers below.
libgshmem_core_la_SOURCES += host/api.h host/setup.c host/mem.c host/rma.c \
	host/rma_strided.c host/amo.c host/signal.c host/p2psync.c host/order.c host/lock.c \
	host/ctx.c host/barrier.c host/cache.c host/info.c host/team.c host/coll.c \
	host/reduce_ops.h host/reduce.c host/reducescatter.c host/reduce_toall.c host/device.c host/alloc_call.h host/alloc_call.c host/buffer.c host/team_uid.c host/uid.c \
	host/heap_hold.c host/team_nv.c host/hostlib.c
