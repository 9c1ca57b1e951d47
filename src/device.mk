# src/device.mk: the host side of the device API (proxy channels and
# threads, host-lane launcher, device state, device heap).
libgshmem_core_la_SOURCES += \
	src/devmem.h src/devmem_host.c src/device.h src/device.c \
	src/proxy.h src/proxy.c src/lanes.c host/device.c
