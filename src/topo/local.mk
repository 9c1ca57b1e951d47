# src/topo/: where each PE of a node runs its work (hwloc): place.c decides
# from a topology and the PEs' bindings, topo.c applies it for this PE.
libgshmem_core_la_SOURCES += src/topo/place.h src/topo/place.c src/topo/topo.h src/topo/topo.c
