# cmake/local.mk - the CMake package: find_package(gshmem) gives the imported
# targets gshmem::gshmem (libgshmem.so) and, in a build with CUDA,
# gshmem::gshmem_device (libgshmem_device.a); see cmake/gshmemConfig.cmake.in.
#
# make writes the two files (not configure): the directories must be make's
# full expansion of $(libdir) and $(includedir), which configure leaves as
# ${exec_prefix}/lib.  The package turns them into paths relative to its own
# folder, so an installed tree still works when moved or staged by DESTDIR.
cmakeconfigdir = $(libdir)/cmake/gshmem
cmakeconfig_DATA = cmake/gshmemConfig.cmake cmake/gshmemConfigVersion.cmake
EXTRA_DIST += cmake/gshmemConfig.cmake.in cmake/gshmemConfigVersion.cmake.in
CLEANFILES += $(cmakeconfig_DATA)

if HAVE_CUDA
GSHMEM_CMAKE_HAVE_DEVICE = ON
else
GSHMEM_CMAKE_HAVE_DEVICE = OFF
endif

# The pointer size, for the version file's check of a consumer's
# CMAKE_SIZEOF_VOID_P (left empty when the compiler will not say).
gshmem_cmake_edit = ptr=$$(echo __SIZEOF_POINTER__ | $(CC) -E -P - 2>/dev/null | tr -d ' \n'); \
	case $$ptr in [1-9]|[1-9][0-9]) ;; *) ptr= ;; esac; \
	sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	    -e 's|@cmakeconfigdir[@]|$(cmakeconfigdir)|g' \
	    -e 's|@includedir[@]|$(includedir)|g' \
	    -e 's|@libdir[@]|$(libdir)|g' \
	    -e 's|@CUDA_GENCODE[@]|$(CUDA_GENCODE)|g' \
	    -e 's|@GSHMEM_CMAKE_HAVE_DEVICE[@]|$(GSHMEM_CMAKE_HAVE_DEVICE)|g' \
	    -e "s|@GSHMEM_SIZEOF_VOID_P[@]|$$ptr|g"

# Makefile: a new configure (prefix, CUDA, version) rewrites them.
cmake/gshmemConfig.cmake: $(srcdir)/cmake/gshmemConfig.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && $(gshmem_cmake_edit) $(srcdir)/cmake/gshmemConfig.cmake.in > $@.tmp && mv $@.tmp $@
cmake/gshmemConfigVersion.cmake: $(srcdir)/cmake/gshmemConfigVersion.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) cmake && $(gshmem_cmake_edit) $(srcdir)/cmake/gshmemConfigVersion.cmake.in > $@.tmp && mv $@.tmp $@

# The test: install into a staging folder, build a C program (and, with
# CUDA, a .cu one) against the package with CMake, run the C one on 2 PEs.
TESTS += tests/cmake/run.sh
EXTRA_DIST += tests/cmake/run.sh tests/cmake/project/CMakeLists.txt tests/cmake/project/hello.c \
	tests/cmake/cuda/CMakeLists.txt tests/cmake/cuda/ring.cu
