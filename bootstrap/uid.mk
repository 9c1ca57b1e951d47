# bootstrap/uid.mk - the unique-id bootstrap (TCP rendezvous) and its public
# entry points (gshmemx_get_uniqueid, gshmemx_init_attr).
libgshmem_core_la_SOURCES += bootstrap/uid.h bootstrap/uid_int.h bootstrap/uid.c \
	bootstrap/uid_id.c bootstrap/uid_sock.c bootstrap/uid_monitor.c host/uid.c
