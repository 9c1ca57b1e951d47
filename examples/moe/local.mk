# examples/moe: the MoE example program over libgshmem_moe (libs/moe).
# The example: `tools/gshmemrun -np 4 examples/moe/moe` prints the shape,
# the time and GB/s of dispatch and combine in both modes, and "verified".
noinst_PROGRAMS += examples/moe/moe
examples_moe_moe_SOURCES = examples/moe/moe_main.c $(MOE_RUN_SOURCES)
examples_moe_moe_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/libs/moe
examples_moe_moe_CFLAGS = $(AM_CFLAGS) $(MOE_VEC_CFLAGS)
examples_moe_moe_LDADD = libs/moe/libgshmem_moe.la libgshmem.la

