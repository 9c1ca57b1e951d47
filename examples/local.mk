# examples/: small complete programs, built by `make` against the library.
noinst_PROGRAMS = examples/ring
examples_ring_SOURCES = examples/ring.c
examples_ring_LDADD = libgshmem.la
