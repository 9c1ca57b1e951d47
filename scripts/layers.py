#!/usr/bin/env python3
"""Check the layering of the library's sources (docs/architecture.md, "Layers").

A module is a source stem: src/core/pe.c and src/core/pe.h are one module,
src/core/pe.  Module A depends on module B when a file of A includes a file
of B, or when A's object file uses a symbol that B's object file defines
(`nm`, so calls through headers that name another module's routine count
even where no include says so).

Three rules, each printed with the edges that break it:
  1. Layers point one way: a module may depend only on modules of its own
     layer or of a layer below it (the LAYERS list, lowest first).
  2. No circle among modules is longer than MAX_CIRCLE.
  3. The libraries on the public API (PUBLIC_ONLY: libs/) use the runtime
     only through it: their own layer, the public entry points (host/, and
     any name libgshmem.so exports: EXPORTED) and the shared headers
     (include/, device/), and crypto/ (a leaf each library compiles in),
     never src/ or bootstrap/.

Usage: scripts/layers.py [--build DIR] [--graph]
  --build DIR  where the objects are (default: the source tree, the in-tree
               build that scripts/build.sh makes); without objects only the
               include edges are checked, and it says so.
  --graph      print every edge.
Exit status: 0 when both rules hold, 1 otherwise.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Lowest first.  A layer may use itself and any layer before it.
LAYERS = [
    ("crypto", ["crypto"]),
    ("bootstrap", ["bootstrap"]),
    ("base", ["src/base"]),
    ("topo", ["src/topo"]),
    ("net", ["src/net"]),
    ("core", ["src/core"]),
    ("coll", ["src/coll"]),
    ("gpu", ["src/gpu"]),
    ("init", ["src/init"]),
    ("host", ["host"]),
    ("libs", ["libs"]),
]
# Layers built on the public API only (rule 3): what they may reach besides
# themselves and SHARED.
# crypto/ is a leaf (it includes only libc) that libs compile in themselves.
PUBLIC_ONLY = {"libs": ["host", "crypto"]}
# Shared host/device structs and inline device code: any layer may include
# them, they include nothing of the library's layers.
SHARED = ["device", "include", "config"]
MAX_CIRCLE = 3
# The names libgshmem.so exports (tests/header/exports.sh checks the list).
EXPORTED = ("shmem_", "pshmem_", "shmemx_", "pshmemx_", "gshmem_", "gshmemx_", "gshmemi_")
SCANNED = [d for _, dirs in LAYERS for d in dirs]
INCLUDE_PATH = ["src", ".", "include", "device"]


def layer_of(module):
    for rank, (name, dirs) in enumerate(LAYERS):
        for d in dirs:
            if module == d or module.startswith(d + "/"):
                return rank, name
    return None, None


def sources():
    for d in SCANNED:
        for root, _, files in os.walk(os.path.join(TOP, d)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(root, f), TOP)


def module_of(path):
    return os.path.splitext(path)[0]


def resolve(inc, src):
    for base in [os.path.dirname(src)] + INCLUDE_PATH:
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.exists(os.path.join(TOP, p)):
            return p
    return None  # config.h and other generated headers


def include_edges(files):
    edges = {}
    pat = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for f in files:
        with open(os.path.join(TOP, f), errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = pat.match(line)
                if not m:
                    continue
                p = resolve(m.group(1), f)
                if p:
                    edges.setdefault((module_of(f), module_of(p)), "%s:%d includes %s" % (f, n, p))
    return edges


def objects(build, files):
    """Map each .c source to the object libtool or make built for it."""
    stems = {}
    for f in files:
        if f.endswith(".c"):
            stems.setdefault((os.path.dirname(f), os.path.basename(f)[:-2]), f)
    found = {}
    for (d, stem), f in stems.items():
        bd = os.path.join(build, d)
        for sub in (".libs", ""):
            dd = os.path.join(bd, sub)
            if not os.path.isdir(dd):
                continue
            for o in os.listdir(dd):
                if o.endswith(".o") and (o == stem + ".o" or o.endswith("-" + stem + ".o")):
                    found.setdefault(f, os.path.join(dd, o))
    return found


def symbol_edges(objs):
    defined, used = {}, {}
    for src, obj in objs.items():
        out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            name, kind = parts[0], parts[1]
            if kind == "U":
                used.setdefault(src, set()).add(name)
            elif kind.isupper():
                defined.setdefault(name, src)
    edges = {}
    for src, names in used.items():
        public_only = layer_of(module_of(src))[1] in PUBLIC_ONLY
        for name in sorted(names):
            d = defined.get(name)
            # A library above the runtime calls what libgshmem.so exports
            # (the public API, and the gshmemi_ entry points that the shared
            # device headers call), wherever in src/ it is defined.
            if public_only and name.startswith(EXPORTED):
                continue
            if d and module_of(d) != module_of(src):
                edges.setdefault((module_of(src), module_of(d)), "%s uses %s from %s" % (src, name, d))
    return edges


def circles(nodes, adj):
    """Tarjan's strongly connected components."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    build, graph = TOP, False
    i = 1
    while i < len(argv):
        if argv[i] == "--build":
            build = os.path.abspath(argv[i + 1])
            i += 1
        elif argv[i] == "--graph":
            graph = True
        else:
            print(__doc__.strip())
            return 2
        i += 1
    files = list(sources())
    edges = include_edges(files)
    objs = objects(build, files)
    n_c = sum(1 for f in files if f.endswith(".c"))
    if objs:
        for k, why in symbol_edges(objs).items():
            edges.setdefault(k, why)
    print("layers: %d files, %d of %d .c files with objects in %s, %d module edges"
          % (len(files), len(objs), n_c, os.path.relpath(build, os.getcwd()), len(edges)))
    if not objs:
        print("layers: no objects (build first): include edges only")
    bad = 0
    adj, nodes = {}, set()
    for (a, b), why in sorted(edges.items()):
        if graph:
            print("  %s -> %s  (%s)" % (a, b, why))
        ra, na = layer_of(a)
        rb, nb = layer_of(b)
        if rb is None:
            shared = any(b == d or b.startswith(d + "/") for d in SHARED)
            if not shared:
                print("layers: %s -> %s: outside the layers (%s)" % (a, b, why))
                bad += 1
            continue
        if ra is not None and rb > ra:
            print("layers: %s (%s) -> %s (%s) points up: %s" % (a, na, b, nb, why))
            bad += 1
        elif na in PUBLIC_ONLY and nb != na and nb not in PUBLIC_ONLY[na]:
            print("layers: %s (%s) -> %s (%s) goes around the public API: %s" % (a, na, b, nb, why))
            bad += 1
        adj.setdefault(a, set()).add(b)
        nodes.update((a, b))
    for comp in circles(nodes, adj):
        long = len(comp) > MAX_CIRCLE
        print("layers: circle of %d%s: %s" % (len(comp), " (too long)" if long else "", " ".join(comp)))
        for (a, b), why in sorted(edges.items()):
            if a in comp and b in comp:
                print("    %s -> %s  (%s)" % (a, b, why))
        bad += long
    print("layers: %s" % ("ok" if not bad else "%d problems" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
