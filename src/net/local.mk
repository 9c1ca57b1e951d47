# src/net/: the network transports behind one ops table (transport.h):
# none (every peer is mapped), node (one host's peers mapped by the transport), UCX and verbs.
libgshmem_core_la_SOURCES += src/net/transport.h src/net/none.c \
	src/net/node/node.h src/net/node/node.c \
	src/net/ucx/ucx_state.h src/net/ucx/ucx_state.c src/net/ucx/ucx.c src/net/ucx/ucx_rma.c \
	src/net/ucx/ucx_am.h src/net/ucx/ucx_am.c src/net/ucx/ucx_extra.c src/net/ucx/ucx_local.c \
	src/net/ucx/ucx_rehome.h src/net/ucx/ucx_rehome.c src/net/ucx/ucx_private.h \
	src/net/ucx/ucx_private.c
libgshmem_core_la_SOURCES += src/net/verbs/verbs_dev.h src/net/verbs/verbs_state.h \
	src/net/verbs/verbs_state.c src/net/verbs/verbs.c src/net/verbs/verbs_dev.c \
	src/net/verbs/verbs_qp.c src/net/verbs/verbs_window.h src/net/verbs/verbs_window.c \
	src/net/verbs/verbs_mr.c src/net/verbs/verbs_dmabuf.h src/net/verbs/verbs_dmabuf.c \
	src/net/verbs/verbs_rma.c src/net/verbs/verbs_amo.c src/net/verbs/verbs_async.c
