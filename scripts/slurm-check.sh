#!/usr/bin/env bash
# make slurm-check: a one-node Slurm cluster on localhost runs the job-array recipe of docs/scale-out.md
# (examples/slurm/padbench-array.sbatch, unchanged) over the sample dataset in 4 shards; the merged
# summary must equal a single run's byte for byte. Installs slurm-wlm and munge (Debian), starts
# munged, slurmctld and slurmd under a private state folder, and stops them (by pid) at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=$ROOT/.build/release/padbench
DATASET=${DATASET:-$ROOT/datasets/sample}
PROFILES=${PROFILES:-basic}
WORK=$(mktemp -d /tmp/padbench-slurm.XXXXXX)
SHARDS=4
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge
fi
[ -x "$BIN" ] || swift build -c release
HOST=$(hostname -s)
mkdir -p "$WORK"/{state,spool,log,munge,out}
pids=()
cleanup() {
  local daemons=("${pids[@]}")
  for f in "$WORK"/slurmd.pid "$WORK"/slurmctld.pid "$WORK"/munge/munged.pid; do
    [ -f "$f" ] && daemons+=("$(cat "$f")")
  done
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  # slurmctld takes a moment to save its state and exit: wait (up to 15 s) so none outlives the check.
  for _ in $(seq 1 30); do
    alive=0
    for pid in "${daemons[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.5
  done
  for pid in "${daemons[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

# munge: a key of its own, a socket in the work folder.
dd if=/dev/urandom bs=1 count=1024 of="$WORK/munge/munge.key" status=none
chmod 400 "$WORK/munge/munge.key"
munged --force --key-file="$WORK/munge/munge.key" --socket="$WORK/munge/socket" \
  --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/log/munged.log" --seed-file="$WORK/munge/seed"
CPUS=$(nproc)
cat > "$WORK/slurm.conf" <<CONF
ClusterName=padbench-check
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/socket
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=check Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$WORK/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 30); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo

echo "== submitting examples/slurm/padbench-array.sbatch as a $SHARDS-task array"
JOB=$(sbatch --parsable --array=1-$SHARDS --cpus-per-task=1 --output="$WORK/log/%A_%a.out" \
  --export=ALL,DATASET="$DATASET",PROFILES="$PROFILES",SHARDS=$SHARDS,OUT="$WORK/out",PADBENCH="$BIN" \
  examples/slurm/padbench-array.sbatch)
echo "job $JOB"
for _ in $(seq 1 600); do
  [ -z "$(squeue -h -j "$JOB" 2>/dev/null)" ] && break
  sleep 1
done
sacct -j "$JOB" 2>/dev/null || true
ls "$WORK/out"
for k in $(seq 1 $SHARDS); do
  [ -f "$WORK/out/shard-$k/results.tar.zst" ] || { echo "shard $k did not finish:"; cat "$WORK"/log/*_"$k".out || true; exit 1; }
done

echo "== merge and compare with a single run"
"$BIN" merge "$WORK"/out/shard-*/results.tar.zst --out "$WORK/merged" > /dev/null
"$BIN" bench --dataset "$DATASET" --profiles "$PROFILES" --out "$WORK/single" --quiet > /dev/null
status=0
for f in summary.csv per_species.csv reject_reasons.csv curves.csv; do
  if cmp -s "$WORK/merged/$f" "$WORK/single/$f"; then echo "$f: merged shards equal the single run byte for byte"
  else echo "$f: DIFFERS"; diff "$WORK/single/$f" "$WORK/merged/$f" | head -5; status=1; fi
done
[ $status = 0 ] && echo "slurm-check: passed" || echo "slurm-check: FAILED"
exit $status
