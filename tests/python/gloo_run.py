"""Run the Python tests on N processes without a launcher: torch.multiprocessing
starts them, they form a gloo process group, and each runs pytest with
GSHMEM_PYTEST_INIT=group (gshmem.init(group=...)) or uid (rank 0's unique id
broadcast over the group, then gshmem.init(uid=..., rank=..., nranks=...)).

    python3 gloo_run.py NP group|uid PYTEST-ARGS...

Exit status 0 when every process passed."""
import os
import socket
import sys

import gshmem  # noqa: F401  (first: it makes Debian's torch importable, _deps.py)
import torch.multiprocessing as mp  # noqa: E402


def _worker(rank, nprocs, port, mode, args):
    os.environ["GSHMEM_PYTEST_INIT"] = mode
    import torch.distributed as dist
    import pytest

    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank,
                            world_size=nprocs)
    rc = int(pytest.main(args))
    if rc != 0:  # which process, and pytest's own status (not a crash, not the library's exit)
        print("gloo_run.py: rank %d: pytest returned %d" % (rank, rc), file=sys.stderr, flush=True)
    dist.destroy_process_group()
    sys.exit(rc)


def main():
    nprocs, mode, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    try:
        mp.start_processes(_worker, args=(nprocs, port, mode, args), nprocs=nprocs, join=True,
                           start_method="spawn")
    except Exception as e:  # one process failed: say which, fail the test
        print("gloo_run.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
