# src/core/: this PE and its symmetric memory: PE state, the peers' mappings
# and the network for the others, the heap and its allocator, static data,
# address translation and per-peer dispatch (rma.h), waits.
libgshmem_core_la_SOURCES += src/core/pe.h src/core/pe.c src/core/peers.h src/core/peers.c \
	src/core/alloc.h src/core/alloc.c src/core/heap.h src/core/heap.c \
	src/core/heap_keep.h src/core/heap_keep.c \
	src/core/static_data.h src/core/static_data.c src/core/rma.h \
	src/core/wait.h src/core/wait.c src/core/liveness.h src/core/liveness.c \
	src/core/localbuf.h src/core/localbuf.c src/core/symreg.h src/core/symreg.c
