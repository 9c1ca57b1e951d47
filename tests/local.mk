# tests/: checks of the headers (declarations, C11 generics and C++
# overloads, constants), of the exported symbols, and of the README.
TESTS += tests/layers.sh tests/format.sh tests/pe/net-mk-current.sh tests/header/decls.sh tests/header/headers.sh \
	tests/header/generic.sh tests/header/symbols.sh tests/header/exports.sh tests/readme_env.sh
EXTRA_DIST += tests/layers.sh tests/format.sh tests/pe/net-mk-current.sh tests/header/decls.sh tests/header/headers.sh \
	tests/header/generic.sh tests/header/symbols.sh tests/header/exports.sh tests/readme_env.sh
EXTRA_DIST += tests/header/names.sh tests/header/openshmem-1.6-symbols.txt \
	tests/header/legacy-symbols.txt tests/header/generic.c tests/header/overload.cpp \
	tests/header/stubs.cpp tests/header/spec_types.h tests/header/constants.c

# The NVSHMEM-shaped names (scripts/gen_names.py writes the list from the
# type table; scripts/decl_names.py reads the preprocessed headers).
TESTS += tests/header/nvshmem-names.sh
EXTRA_DIST += tests/header/nvshmem-names.sh tests/header/nvshmem-names.txt \
	scripts/gen_names.py scripts/decl_names.py

# The profiling interface (a program that wraps shmem_ routines itself).
check_PROGRAMS += tests/pe/profiling
tests_pe_profiling_SOURCES = tests/pe/profiling.c tests/pe/pe_test.h
tests_pe_profiling_LDADD = libgshmem.la
TESTS += tests/pe/profiling-np1.pe tests/pe/profiling-np2.pe

# Progress: a computing PE does not stall the operations aimed at it.
check_PROGRAMS += tests/pe/progress
tests_pe_progress_SOURCES = tests/pe/progress.c tests/pe/pe_test.h
tests_pe_progress_LDADD = libgshmem.la
TESTS += tests/pe/progress-np2.pe

# Placement (src/topo): gshmem-info --topology on this node and on the
# synthetic nodes of tests/topo/ (tests/unit/topo checks the rules).
TESTS += tests/topo/info.sh
EXTRA_DIST += tests/topo/info.sh tests/topo/gen-xml.py tests/topo/dgx8.xml tests/topo/pcie4.xml
