# src/net/: the network transports behind one ops table (transport.h):
# none (every peer is mapped) and UCX.
libgshmem_core_la_SOURCES += src/net/transport.h src/net/none.c \
	src/net/ucx/ucx_state.h src/net/ucx/ucx_state.c src/net/ucx/ucx.c src/net/ucx/ucx_rma.c \
	src/net/ucx/ucx_am.h src/net/ucx/ucx_am.c src/net/ucx/ucx_extra.c src/net/ucx/ucx_local.c \
	src/net/ucx/ucx_rehome.h src/net/ucx/ucx_rehome.c src/net/ucx/ucx_private.h \
	src/net/ucx/ucx_private.c
