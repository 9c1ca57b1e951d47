# Placement at init (src/topo): the NIC is set for the transport before it
# starts, and a bad override ends the job with one line.
check_PROGRAMS += tests/pe/topo_nic tests/pe/bad_topo_gpu
tests_pe_topo_nic_SOURCES = tests/pe/topo_nic.c tests/pe/pe_test.h
tests_pe_topo_nic_LDADD = libgshmem.la
tests_pe_bad_topo_gpu_SOURCES = tests/pe/bad_topo_gpu.c
tests_pe_bad_topo_gpu_LDADD = libgshmem.la
TESTS += tests/pe/topo_nic-np1.pe tests/pe/topo_nic-np2.pe tests/pe/bad_topo_gpu-np1.pe \
	tests/pe/bad_topo_gpu-np2.pe
