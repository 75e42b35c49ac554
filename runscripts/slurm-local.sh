#!/usr/bin/env bash
# A single-node SLURM cluster on this machine, for tests and for trying sweeps before a real cluster:
#   runscripts/slurm-local.sh up     # start munged, slurmctld and slurmd (root; Debian: apt-get install slurm-wlm munge)
#   runscripts/slurm-local.sh down   # stop the daemons this script started (by their PIDs), nothing else
#   runscripts/slurm-local.sh status # sinfo
# One node (localhost) with this machine's CPUs and memory, one partition `gpu` (the name
# conf/hydra/launcher/slurm.yaml asks for; it has no GPUs: run with hydra.launcher.gpus_per_node=0).
# State, spool, logs and PID files live in SLURM_LOCAL_DIR (default /tmp/bct-slurm).
set -euo pipefail
dir=${SLURM_LOCAL_DIR:-/tmp/bct-slurm}
conf=/etc/slurm/slurm.conf

need() {
  for cmd in munged slurmctld slurmd sinfo; do
    command -v "$cmd" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$cmd" >/dev/null 2>&1 || {
      echo "error: $cmd not found; install SLURM and munge: apt-get install -y slurm-wlm munge (as root)" >&2; exit 1; }
  done
  [ "$(id -u)" = 0 ] || { echo "error: starting SLURM's daemons needs root" >&2; exit 1; }
}

up() {
  need
  export PATH=$PATH:/usr/sbin
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then echo "slurm-local: already up"; return; fi
  mkdir -p "$dir"/{state,spool,log} /run/munge /var/log/munge
  chown munge:munge /run/munge /var/log/munge 2>/dev/null || true
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  local cpus mem
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
  mkdir -p /etc/slurm
  cat >"$conf" <<CONF
# written by bct's runscripts/slurm-local.sh: a single-node cluster for tests
ClusterName=bct-local
SlurmctldHost=localhost
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
JobRequeue=1
ReturnToService=2
SlurmUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
MpiDefault=none
SchedulerType=sched/backfill
KillWait=5
MinJobAge=300
NodeName=localhost CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=gpu Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
  if ! pgrep -x munged >/dev/null; then
    runuser -u munge -- /usr/sbin/munged --pid-file="$dir/munged.pid" 2>/dev/null ||
      su -s /bin/sh munge -c "/usr/sbin/munged --pid-file=$dir/munged.pid"
    echo started >"$dir/munged.ours"
  fi
  /usr/sbin/slurmctld -c  # no jobs recovered from an earlier life of this local cluster: a stale one holds the node for a minute
  /usr/sbin/slurmd
  for _ in $(seq 60); do
    if sinfo -h -o %T 2>/dev/null | grep -q idle; then echo "slurm-local: up ($cpus CPUs, ${mem} MiB, partition gpu; state in $dir)"; return; fi
    sleep 1
  done
  echo "error: the node did not become idle in 60 s; see $dir/log/" >&2
  sinfo >&2 || true
  exit 1
}

down() {
  for daemon in slurmd slurmctld; do
    if [ -s "$dir/$daemon.pid" ]; then kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true; fi
  done
  if [ -f "$dir/munged.ours" ] && [ -s "$dir/munged.pid" ]; then
    kill "$(cat "$dir/munged.pid")" 2>/dev/null || true
    rm -f "$dir/munged.ours"
  fi
  echo "slurm-local: down"
}

case ${1:-} in
  up) up ;;
  down) down ;;
  status) PATH=$PATH:/usr/sbin sinfo ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
