# tests/rdma/initramfs-boot.sh - the boot script guest.sh puts into the
# guest's initramfs as /scripts/gshmem9p (kernel option boot=gshmem9p):
# initramfs-tools' init sources it and calls mountroot, which mounts the
# host's root, shared read-only over virtio-9p with the tag "hostroot".
# shellcheck shell=sh

mount_top() { :; }
mount_premount() { :; }
mount_bottom() { :; }

mountroot() {
    for m in virtio_pci 9pnet_virtio 9p; do
        modprobe "$m" || panic "gshmem9p: cannot load $m"
    done
    # The virtio device may show up a moment after its driver loads.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        if mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000,cache=loose \
            hostroot "${rootmnt:?}"; then
            return
        fi
        sleep 1
    done
    panic "gshmem9p: cannot mount the 9p root (tag hostroot)"
}
