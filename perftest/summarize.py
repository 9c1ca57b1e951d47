#!/usr/bin/env python3
"""Summarize a perftest results file (JSON lines written by compare.sh).

    python3 summarize.py results/<stamp>.jsonl

Each line is one measurement; compare.sh adds "side" (gshmem, oshmem or raw)
and "rep". For every (bench, bytes, npes) this prints the median per side,
the reference floor where there is one (raw_shm for p_pingpong, memcpy for
put_bw), and gshmem/oshmem. Then the acceptance checks, as PASS/FAIL/SKIP.
The checks are informative: the exit status is 0 whatever they say.
Standard library only.
"""
import json
import statistics
import sys

# Row order of the table; benches not listed here follow, sorted by name.
ORDER = ["p_pingpong", "g_lat", "getmem_lat", "fetch_add_lat", "put_bw",
         "barrier_all_lat", "bcast_lat", "fcollect_lat", "alltoall_lat", "sum_reduce_lat",
         "init_time", "launch_to_init"]
# The collectives (coll_bench.h): gshmem <= 1.0x OSHMEM at every size, and
# <= 0.5x at 4 PEs (oversubscribed on two cores).
COLLECTIVES = [("bcast_lat", "broadcast64"), ("fcollect_lat", "fcollect64"),
               ("alltoall_lat", "alltoall64"), ("sum_reduce_lat", "long_sum_to_all")]
COLL_SIZES = [(8, "8 B"), (65536, "64 KiB"), (1048576, "1 MiB")]
# Shown only as the reference column of another bench, not as rows.
REFERENCE_ONLY = {"memcpy_bw"}
METRICS = ("lat_ns", "MBps")  # lat_ns: lower is better; MBps: higher


def load(path):
    """Returns {(bench, bytes, npes, side): [values]} and {key: metric}."""
    samples, metric_of = {}, {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            try:
                rec = json.loads(line)
            except ValueError:
                print(f"summarize: {path}:{lineno}: not JSON, skipped", file=sys.stderr)
                continue
            metric = next((m for m in METRICS if m in rec), None)
            if metric is None:
                continue
            key = (rec["bench"], rec.get("bytes", 0), rec.get("npes", 0))
            samples.setdefault(key + (rec.get("side", "?"),), []).append(rec[metric])
            metric_of[key] = metric
    return samples, metric_of


def median(samples, key, side):
    values = samples.get(key + (side,))
    return statistics.median(values) if values else None


def memcpy_median(samples, nbytes, npes):
    """memcpy is the same operation whichever library's run measured it,
    so the samples of every side are pooled."""
    values = [v for (b, nb, n, _), vs in samples.items()
              if b == "memcpy_bw" and nb == nbytes and n == npes for v in vs]
    return statistics.median(values) if values else None


def reference(samples, key):
    bench, nbytes, npes = key
    if bench == "p_pingpong":
        return median(samples, key, "raw")
    if bench == "put_bw":
        return memcpy_median(samples, nbytes, npes)
    return None


def fmt(value):
    if value is None:
        return "-"
    return f"{value:.1f}" if value < 1e6 else f"{value:.0f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def print_table(samples, metric_of):
    def sort_key(key):
        bench = key[0]
        rank = ORDER.index(bench) if bench in ORDER else len(ORDER)
        return (rank, bench, key[2], key[1])

    header = ("bench", "bytes", "npes", "metric", "gshmem", "oshmem", "raw/memcpy",
              "g/o", "reps g/o")
    rows = []
    for key in sorted(metric_of, key=sort_key):
        if key[0] in REFERENCE_ONLY:
            continue
        if key[0] == "p_pingpong" and median(samples, key, "gshmem") is None \
                and median(samples, key, "oshmem") is None:
            continue  # a raw-only row: it is shown as the reference column
        g = median(samples, key, "gshmem")
        o = median(samples, key, "oshmem")
        r = ratio(g, o)
        reps = (len(samples.get(key + ("gshmem",), [])),
                len(samples.get(key + ("oshmem",), [])))
        rows.append((key[0], str(key[1]), str(key[2]), metric_of[key], fmt(g), fmt(o),
                     fmt(reference(samples, key)), f"{r:.2f}x" if r else "-",
                     f"{reps[0]}/{reps[1]}"))
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
              for i, h in enumerate(header)]
    line = "  ".join(f"{{:>{w}}}" if i > 0 else f"{{:<{w}}}" for i, w in enumerate(widths))
    print(line.format(*header))
    print(line.format(*("-" * w for w in widths)))
    for row in rows:
        print(line.format(*row))
    print("g/o = gshmem / oshmem: below 1 is better for lat_ns, above 1 for MBps")


def print_checks(samples):
    """The accepted targets. Each compares a gshmem median with a peer median
    from the same results file."""
    pp = ("p_pingpong", 8, 2)
    bw = ("put_bw", 1 << 20, 2)
    init = ("init_time", 0, 2)
    bar = ("barrier_all_lat", 0, 4)
    g = lambda key: median(samples, key, "gshmem")
    o = lambda key: median(samples, key, "oshmem")
    checks = [
        ("p ping-pong 8 B, 2 PEs: gshmem <= 1.1x raw_shm", g(pp),
         median(samples, pp, "raw"), 1.1, "le"),
        ("p ping-pong 8 B, 2 PEs: gshmem <= 1.0x OSHMEM", g(pp), o(pp), 1.0, "le"),
        ("putmem 1 MiB, 2 PEs: gshmem >= 1.0x OSHMEM", g(bw), o(bw), 1.0, "ge"),
        ("putmem 1 MiB, 2 PEs: gshmem >= 0.9x memcpy", g(bw),
         memcpy_median(samples, 1 << 20, 2), 0.9, "ge"),
        ("shmem_init, 2 PEs: gshmem <= 0.2x OSHMEM", g(init), o(init), 0.2, "le"),
        ("barrier_all, 4 PEs: gshmem <= 0.5x OSHMEM", g(bar), o(bar), 0.5, "le"),
    ]
    for bench, name in COLLECTIVES:
        for npes, target in ((2, 1.0), (4, 0.5)):
            for nbytes, size in COLL_SIZES:
                key = (bench, nbytes, npes)
                checks.append((f"{name} {size}, {npes} PEs: gshmem <= {target}x OSHMEM",
                               g(key), o(key), target, "le"))
    print("\nchecks (informative; medians of this run)")
    for name, mine, peer, target, sense in checks:
        r = ratio(mine, peer)
        if r is None:
            verdict, shown = "SKIP", "no data"
        else:
            ok = r <= target if sense == "le" else r >= target
            verdict, shown = ("PASS" if ok else "FAIL"), f"{r:.2f}x ({fmt(mine)} vs {fmt(peer)})"
        print(f"  {verdict:4}  {name:50}  {shown}")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    samples, metric_of = load(argv[1])
    if not samples:
        print(f"summarize: no measurements in {argv[1]}")
        return 0
    print_table(samples, metric_of)
    print_checks(samples)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
