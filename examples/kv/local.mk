# examples/kv: disaggregated prefill and decode over libgshmem_kv (libs/kv):
# two jobs that share a folder and a secret (disagg.c says who does what);
# run.sh runs them, kills a decode process midway and restarts its job.
noinst_PROGRAMS += examples/kv/disagg
examples_kv_disagg_SOURCES = examples/kv/disagg.c
examples_kv_disagg_LDADD = libs/kv/libgshmem_kv.la libgshmem.la
EXTRA_DIST += examples/kv/run.sh
