# device/local.mk - the CUDA build (configure found nvcc and cuda.h:
# HAVE_CUDA; see device/README.md).
#
#   libgshmem_device.a  relocatable device code (nvcc -rdc) for sm_80 and
#                       sm_90 plus compute_90 PTX: the __constant__ device
#                       state and its registration with libgshmem.so
#                       (state.cu), gshmemx_collective_launch (launch.cu),
#                       the *_on_stream host API (stream.cu, point to
#                       point; stream_coll.cu and stream_reduce.cu, the
#                       collectives).  Programs link it (gshmemcc does)
#                       and do the device link.
#   (the GPU half of libgshmem.so is src/gpu/cuda/, src/gpu/local.mk)
EXTRA_DIST += device/README.md device/cuda_hooks.h device/cuda_archive.h \
	device/state.cu device/launch.cu device/stream.cu device/stream_coll.cu \
	device/stream_reduce.cu

if HAVE_CUDA
lib_LIBRARIES = libgshmem_device.a
libgshmem_device_a_SOURCES =
GSD_CU_OBJECTS = device/state.$(OBJEXT) device/launch.$(OBJEXT) device/stream.$(OBJEXT) \
	device/stream_coll.$(OBJEXT) device/stream_reduce.$(OBJEXT)
libgshmem_device_a_LIBADD = $(GSD_CU_OBJECTS)
libgshmem_device_a_DEPENDENCIES = $(GSD_CU_OBJECTS)
libgshmem_device_a_AR = $(AR) cr

# Warnings are errors, the host compiler's included.  -fPIC: the archive
# may go into a shared object (a Python extension).
GSD_NVCCFLAGS = -std=c++17 -rdc=true $(CUDA_GENCODE) -Werror all-warnings \
	-Xcompiler -fPIC,-Wall,-Wextra,-Werror \
	-I$(top_srcdir)/include -I$(top_srcdir)/device -I$(top_builddir)
GSD_V_NVCC = $(GSD_V_NVCC_@AM_V@)
GSD_V_NVCC_ = $(GSD_V_NVCC_@AM_DEFAULT_V@)
GSD_V_NVCC_0 = @echo "  NVCC    " $@;
GSD_V_NVCC_1 =

# Every device header may reach into a .cu file (gshmem_device.h includes
# them all), so each object depends on all of them.
$(GSD_CU_OBJECTS): device/%.$(OBJEXT): $(srcdir)/device/%.cu \
		$(wildcard $(srcdir)/device/*.h $(srcdir)/device/gsd/*.h $(srcdir)/include/gshmem/*.h)
	@$(MKDIR_P) $(@D)
	$(GSD_V_NVCC)$(NVCC) $(GSD_NVCCFLAGS) -c $< -o $@

CLEANFILES += $(GSD_CU_OBJECTS)
endif
