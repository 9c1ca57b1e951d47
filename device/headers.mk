# device/headers.mk - the device API's headers, installed for programs:
# gshmem_device.h beside gshmem.h (which includes it), the inline code it
# includes in $(includedir)/gsd.  Every device/gsd/*.h is listed here.
include_HEADERS += device/gshmem_device.h
gsddir = $(includedir)/gsd
gsd_HEADERS = \
	device/gsd/cdefs.h device/gsd/state.h device/gsd/channel.h device/gsd/arch.h \
	device/gsd/fatal.h device/gsd/poll.h device/gsd/proxy.h device/gsd/kernel.h \
	device/gsd/rows.h device/gsd/group.h device/gsd/path.h device/gsd/ptr.h \
	device/gsd/order.h device/gsd/rma.h device/gsd/amo.h device/gsd/amo_float.h \
	device/gsd/wait.h device/gsd/signal.h device/gsd/team.h device/gsd/coll.h device/gsd/host_api.h \
	device/gsd/stream.h device/gsd/cuda_host.h device/gsd/setup.h \
	device/gsd/region.h
