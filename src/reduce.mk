# reduce sources of the collectives engine (issue 3): appends to libgshmem_core_la_SOURCES
