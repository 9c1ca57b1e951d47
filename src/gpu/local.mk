# src/gpu/: the host side of the device API: the device state, the device
# memory backends (host memory here, the GPU's in cuda/), the host-lane
# launcher, the proxy threads.
libgshmem_core_la_SOURCES += src/gpu/device.h src/gpu/device.c src/gpu/caps.h src/gpu/caps.c \
	src/gpu/devmem.h src/gpu/devmem_host.c src/gpu/module.c \
	src/gpu/lanes.h src/gpu/lanes.c src/gpu/proxy.h src/gpu/proxy.c src/gpu/watch.h

# cuda/: the GPU half of libgshmem.so (configure found CUDA), built with
# cuda.h for the types only: the driver is dlopened at run time, so
# libgshmem.so links no CUDA library and runs where there is no GPU.
EXTRA_DIST += src/gpu/cuda/cuda.h src/gpu/cuda/cuda_driver.h src/gpu/cuda/cuda_driver.c \
	src/gpu/cuda/cuda_devmem.c src/gpu/cuda/cuda_heap.c src/gpu/cuda/cuda_ipc.c \
	src/gpu/cuda/cuda_copy.c src/gpu/watch.c src/gpu/watch_loop.h \
	src/gpu/watch_loop.c
if HAVE_CUDA
noinst_LTLIBRARIES += libgshmem_cuda.la
libgshmem_cuda_la_SOURCES = src/gpu/cuda/cuda.h src/gpu/cuda/cuda_driver.h \
	src/gpu/cuda/cuda_driver.c src/gpu/cuda/cuda_devmem.c src/gpu/cuda/cuda_heap.c \
	src/gpu/cuda/cuda_ipc.c src/gpu/cuda/cuda_copy.c src/gpu/watch.c \
	src/gpu/watch_loop.h \
	src/gpu/watch_loop.c device/cuda_hooks.h
libgshmem_cuda_la_CPPFLAGS = $(AM_CPPFLAGS) $(GSI_CPPFLAGS) $(CUDA_CPPFLAGS)
libgshmem_cuda_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden $(PMIX_CFLAGS)
libgshmem_core_la_LIBADD += libgshmem_cuda.la
endif
