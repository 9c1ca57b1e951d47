# perftest/device.mk - the device-API benchmarks (perftest/README.md,
# "Device API"), built by `make` against the library on host lanes; the
# same sources build for a GPU with gshmemcc -x cu.  perftest/device_bench.sh
# runs them (median of 5, P2P and proxy modes) and prints a table.
noinst_PROGRAMS += perftest/device_lat perftest/device_bw perftest/device_rate
perftest_device_lat_SOURCES = perftest/device_lat.c perftest/device_bench.h perftest/bench.h
perftest_device_lat_LDADD = libgshmem.la
perftest_device_bw_SOURCES = perftest/device_bw.c perftest/device_bench.h perftest/bench.h
perftest_device_bw_LDADD = libgshmem.la
perftest_device_rate_SOURCES = perftest/device_rate.c perftest/device_bench.h perftest/bench.h
perftest_device_rate_LDADD = libgshmem.la
EXTRA_DIST += perftest/device_bench.sh
