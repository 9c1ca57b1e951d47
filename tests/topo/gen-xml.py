#!/usr/bin/env python3
"""Write the synthetic hwloc XML topologies the placement tests load.

  dgx8.xml   2 sockets x 16 cores (1 PU each), one NUMA node per socket; each
             socket has a host bridge with 4 PCIe switches, and each switch
             holds one GPU and one single-port NIC (mlx5_<k> beside GPU k),
             as on an 8-GPU, 8-NIC training node.
  pcie4.xml  1 socket x 8 cores x 2 PUs (core c: PUs c and c+8), one NUMA
             node; 4 GPUs on their own root ports and one dual-port NIC
             (mlx5_0, port 1 down, port 2 active) on a fifth.

hwloc has no synthetic string for PCI devices, so these are XML.  Run it
from tests/topo/ to rewrite them: python3 gen-xml.py
"""
import itertools

gp = itertools.count(1)


def mask(bits):
    v = 0
    for b in bits:
        v |= 1 << b
    return "0x%08x" % v if v < 1 << 32 else hex(v)


def sets(cpus, nodes, root=False):
    s = 'cpuset="%s" complete_cpuset="%s"' % (mask(cpus), mask(cpus))
    if root:
        s += ' allowed_cpuset="%s"' % mask(cpus)
    s += ' nodeset="%s" complete_nodeset="%s"' % (mask(nodes), mask(nodes))
    if root:
        s += ' allowed_nodeset="%s"' % mask(nodes)
    return s


def pcidev(busid, cls, vendor, device, children=""):
    return ('<object type="PCIDev" gp_index="%d" pci_busid="%s" '
            'pci_type="%04x [%04x:%04x] [%04x:0000] 00" pci_link_speed="16.000000">%s</object>'
            % (next(gp), busid, cls, vendor, device, vendor, children))


def bridge(busid, lo, hi, depth, children):
    up = '' if busid is None else ' pci_busid="%s" pci_type="0604 [1000:c010] [0000:0000] 00"' % busid
    kind = "0-1" if busid is None else "1-1"
    return ('<object type="Bridge" gp_index="%d" bridge_type="%s" depth="%d" '
            'bridge_pci="0000:[%02x-%02x]"%s>%s</object>'
            % (next(gp), kind, depth, lo, hi, up, children))


def nic(name, states):
    infos = "".join('<info name="Port%dState" value="%d"/>' % (k + 1, s)
                    for k, s in enumerate(states))
    return ('<object type="OSDev" gp_index="%d" name="%s" subtype="OpenFabrics" '
            'osdev_type="3">%s</object>' % (next(gp), name, infos))


def cores(first_core, n, pus_of):
    out = ""
    for c in range(first_core, first_core + n):
        pus = pus_of(c)
        out += '<object type="Core" gp_index="%d" os_index="%d" %s>' % (
            next(gp), c, sets(pus, []))
        for p in pus:
            out += '<object type="PU" gp_index="%d" os_index="%d" %s/>' % (
                next(gp), p, sets([p], []))
        out += "</object>"
    return out


def topology(body, cpus, nodes):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE topology SYSTEM "hwloc2.dtd">\n'
            '<topology version="2.0">\n'
            '<object type="Machine" gp_index="%d" os_index="0" %s>%s</object>\n'
            '</topology>\n' % (next(gp), sets(cpus, nodes, root=True), body))


def dgx8():
    body = ""
    for s in range(2):
        cpus = list(range(16 * s, 16 * s + 16))
        switches = ""
        for i in range(4):
            k = 4 * s + i
            bus = 0x10 + 0x40 * s + 0x10 * i
            switches += bridge("0000:%02x:%02x.0" % (0x40 * s, i + 1), bus, bus + 2, 1,
                               pcidev("0000:%02x:00.0" % (bus + 1), 0x0302, 0x10de, 0x2330) +
                               pcidev("0000:%02x:00.0" % (bus + 2), 0x0207, 0x15b3, 0x1021,
                                      nic("mlx5_%d" % k, [4])))
        body += '<object type="Package" gp_index="%d" os_index="%d" %s>' % (
            next(gp), s, sets(cpus, [s]))
        body += '<object type="NUMANode" gp_index="%d" os_index="%d" %s local_memory="%d"/>' % (
            next(gp), s, sets(cpus, [s]), 256 << 30)
        body += cores(16 * s, 16, lambda c: [c])
        body += bridge(None, 0x40 * s, 0x40 * s + 0x3f, 0, switches)
        body += "</object>"
    return topology(body, range(32), [0, 1])


def pcie4():
    cpus = list(range(16))
    ports = ""
    for k in range(4):
        ports += bridge("0000:00:%02x.0" % (k + 1), k + 1, k + 1, 1,
                        pcidev("0000:%02x:00.0" % (k + 1), 0x0300 if k == 3 else 0x0302,
                               0x10de, 0x20b5))
    ports += bridge("0000:00:05.0", 5, 5, 1,
                    pcidev("0000:05:00.0", 0x0207, 0x15b3, 0x101d, nic("mlx5_0", [1, 4])))
    body = '<object type="Package" gp_index="%d" os_index="0" %s>' % (next(gp), sets(cpus, [0]))
    body += '<object type="NUMANode" gp_index="%d" os_index="0" %s local_memory="%d"/>' % (
        next(gp), sets(cpus, [0]), 128 << 30)
    body += cores(0, 8, lambda c: [c, c + 8])
    body += bridge(None, 0, 5, 0, ports)
    body += "</object>"
    return topology(body, cpus, [0])


for name, text in (("dgx8.xml", dgx8()), ("pcie4.xml", pcie4())):
    with open(name, "w") as f:
        f.write(text)
