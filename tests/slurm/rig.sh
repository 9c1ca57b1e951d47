# tests/slurm/rig.sh - a one-host Slurm for the tests, sourced by a test script.
#
#   . tests/slurm/rig.sh
#   rig_start DIR || skip "$rig_reason"   # munged, slurmctld, slurmd; SLURM_CONF set
#   ... srun ...
#   rig_stop                              # also run by the EXIT trap rig_start sets
#
# Everything lives in DIR: munge's key and socket, a generated slurm.conf (one
# node, this host, with its CPUs; jobs may overcommit them, so srun -O -n 4
# runs on 2 cores), the daemons' state, spool, logs and pid files.  The
# daemons run as root (SlurmUser=root) on ports of their own, so they do not
# meet a Slurm this host may already run.  rig_start fails with a reason in
# $rig_reason when this cannot be done (not root, packages missing, a daemon
# that does not come up); it waits a bounded time for the node to be idle.

rig_dir=
rig_reason=
rig_pids=

rig_stop() {
    for pidfile in slurmd.pid slurmctld.pid munged.pid; do
        [ -n "$rig_dir" ] && [ -f "$rig_dir/$pidfile" ] || continue
        pid=$(cat "$rig_dir/$pidfile" 2>/dev/null)
        [ -n "$pid" ] || continue
        kill "$pid" 2>/dev/null
        # A bounded wait for it to go, then force.
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -9 "$pid" 2>/dev/null
        rm -f "$rig_dir/$pidfile"
    done
}

# rig_wait SECONDS COMMAND...: run COMMAND every 0.2 s until it succeeds.
rig_wait() {
    limit=$(($1 * 5))
    shift
    i=0
    while [ $i -lt "$limit" ]; do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
        i=$((i + 1))
    done
    return 1
}

rig_node_idle() {
    sinfo -h -N -o '%T' 2>/dev/null | grep -q '^idle'
}

rig_start() {
    rig_dir=$1
    if [ "$(id -u)" != 0 ]; then
        rig_reason="not root: the test Slurm's daemons run as root"
        return 1
    fi
    for tool in munged mungekey slurmctld slurmd srun sinfo; do
        if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
            rig_reason="$tool not found (apt-get install slurmd slurmctld munge slurm-client slurm-wlm-basic-plugins)"
            return 1
        fi
    done
    PATH=$PATH:/usr/sbin
    mkdir -p "$rig_dir/ctld" "$rig_dir/spool" "$rig_dir/munge" || {
        rig_reason="cannot make $rig_dir"
        return 1
    }
    trap rig_stop EXIT
    trap 'rig_stop; exit 1' INT TERM

    if ! mungekey --create --keyfile="$rig_dir/munge/munge.key" >"$rig_dir/mungekey.log" 2>&1; then
        rig_reason="mungekey failed: $(tail -n 1 "$rig_dir/mungekey.log")"
        return 1
    fi
    chmod 700 "$rig_dir/munge"
    # --force: munged refuses root and shared folders without it.
    if ! munged --force --key-file="$rig_dir/munge/munge.key" \
        --socket="$rig_dir/munge/munge.socket" --pid-file="$rig_dir/munged.pid" \
        --log-file="$rig_dir/munged.log" --seed-file="$rig_dir/munge/munge.seed" 2>"$rig_dir/munged.err"; then
        rig_reason="munged did not start: $(tail -n 1 "$rig_dir/munged.err")"
        return 1
    fi

    host=$(hostname -s)
    cpus=$(nproc)
    # Ports of our own (from the pid, in 20000-39999) so that two rigs, or a
    # real Slurm, do not meet.
    base=$((20000 + ($$ % 10000) * 2))
    cat >"$rig_dir/slurm.conf" <<CONF
ClusterName=gshmemtest
SlurmctldHost=$host
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$rig_dir/munge/munge.socket
StateSaveLocation=$rig_dir/ctld
SlurmdSpoolDir=$rig_dir/spool
SlurmctldPidFile=$rig_dir/slurmctld.pid
SlurmdPidFile=$rig_dir/slurmd.pid
SlurmctldLogFile=$rig_dir/slurmctld.log
SlurmdLogFile=$rig_dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=gshmem Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
    # A test run inside a real Slurm job must not hand that job's variables
    # (SLURM_JOB_ID, ...) to this rig's srun and salloc.
    for var in $(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset "$var"
    done
    SLURM_CONF=$rig_dir/slurm.conf
    export SLURM_CONF
    # -c: a clean state, -i: ignore errors in state files left by an old rig.
    if ! slurmctld -c -i >"$rig_dir/slurmctld.out" 2>&1; then
        rig_reason="slurmctld did not start: $(tail -n 1 "$rig_dir/slurmctld.out")"
        return 1
    fi
    if ! slurmd >"$rig_dir/slurmd.out" 2>&1; then
        rig_reason="slurmd did not start: $(tail -n 1 "$rig_dir/slurmd.out")"
        return 1
    fi
    if ! rig_wait 60 rig_node_idle; then
        rig_reason="node $host not idle after 60 s: $(sinfo -h -N -o '%T %E' 2>&1 | head -n 1); $(tail -n 1 "$rig_dir/slurmd.log" 2>/dev/null)"
        return 1
    fi
    return 0
}
