# src/init/: gsi_init and gsi_finalize run the layers in order, from the
# one place above them all.
libgshmem_core_la_SOURCES += src/init/init.h src/init/init.c
