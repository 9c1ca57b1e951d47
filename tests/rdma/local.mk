# tests/rdma/: the soft-RoCE rig (tests/rdma/README.md).  rig.tap boots a
# QEMU guest with rxe0 (guest.sh) once and runs tests.list in it: the
# multi-PE tests over gst_verbs and over UCX's rc_verbs, perftest's
# ib_write_lat/ib_write_bw beside them.  Root only (a TAP skip elsewhere); at most 18 minutes.
# scripts/test.sh runs it on its own, after the rest (`make check
# GSHMEM_RIG_TESTS=` leaves it out): beside the other tests of a parallel
# make check the guest got a fraction of a core, its timeouts grew into the
# limits, and a UCX line over ud_verbs once hung.
GSHMEM_RIG_TESTS = tests/rdma/rig.tap
TESTS += $(GSHMEM_RIG_TESTS)
EXTRA_DIST += tests/rdma/rig.tap tests/rdma/tests.list tests/rdma/guest.sh \
	tests/rdma/guest-init.sh tests/rdma/initramfs-boot.sh tests/rdma/rig-guest.sh \
	tests/rdma/ib_pair.sh tests/rdma/port_down.sh tests/rdma/verbs.list tests/rdma/README.md
