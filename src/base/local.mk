# src/base/: what knows nothing of PEs: the status type, the log, the
# environment table and its parser, the copy routine, memfd mappings.
libgshmem_core_la_SOURCES += src/base/status.h src/base/status.c src/base/clock.h \
	src/base/log.h src/base/log.c src/base/env_table.h src/base/env.h src/base/env.c \
	src/base/copy.h src/base/copy.c src/base/memfd.h src/base/memfd.c \
	src/base/shared_map.h src/base/shared_map.c
