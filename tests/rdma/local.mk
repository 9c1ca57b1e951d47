# tests/rdma/: the soft-RoCE rig (tests/rdma/README.md).  rig.tap boots a
# QEMU guest with rxe0 (guest.sh) once and runs tests.list in it: the
# multi-PE tests over gst_verbs and over UCX's rc_verbs, perftest's
# ib_write_lat/ib_write_bw beside them.  Root only (a TAP skip elsewhere); at most 18 minutes.
TESTS += tests/rdma/rig.tap
EXTRA_DIST += tests/rdma/rig.tap tests/rdma/tests.list tests/rdma/guest.sh \
	tests/rdma/guest-init.sh tests/rdma/initramfs-boot.sh tests/rdma/rig-guest.sh \
	tests/rdma/ib_pair.sh tests/rdma/README.md
