"""One gshmem job per pytest session: every PE runs the same tests in the same
order, so each test's collectives meet.  GSHMEM_PYTEST_INIT (set by run.sh
and gloo_run.py) says how the job starts: "launcher" (gshmemrun / mpirun),
"group" (a torch.distributed gloo group, gloo_run.py made it) or "uid"
(rank 0's unique id sent around over that group, then init(uid=...))."""
import os

import pytest

import gshmem


def _start():
    mode = os.environ.get("GSHMEM_PYTEST_INIT", "launcher")
    if mode == "launcher":
        gshmem.init()
    elif mode == "group":
        import torch.distributed as dist
        gshmem.init(group=dist.group.WORLD)
    elif mode == "uid":
        import torch
        import torch.distributed as dist
        buf = torch.zeros(128, dtype=torch.uint8)
        if dist.get_rank() == 0:
            buf.copy_(torch.frombuffer(bytearray(gshmem.get_unique_id()), dtype=torch.uint8))
        dist.broadcast(buf, src=0)
        gshmem.init(uid=buf.numpy().tobytes(), rank=dist.get_rank(),
                    nranks=dist.get_world_size())
    else:
        raise RuntimeError("GSHMEM_PYTEST_INIT=%s: not launcher, group or uid" % mode)
    return mode


@pytest.fixture(scope="session", autouse=True)
def job():
    mode = _start()
    yield mode
    gshmem.barrier_all()
    gshmem.finalize()


def pytest_runtest_logreport(report):
    """Print a failure at once, with the PE: the job may end before pytest's
    summary (the other PEs wait in the next test's collective)."""
    if report.failed:
        import sys
        pe = gshmem.my_pe() if gshmem.is_initialized() else "?"
        sys.stderr.write("PE %s: FAILED %s (%s)\n%s\n" % (pe, report.nodeid, report.when,
                                                          report.longreprtext))
        sys.stderr.flush()
