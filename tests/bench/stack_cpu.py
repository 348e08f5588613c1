"""CPU time the local stack's processes spend, per role, read from /proc: on a machine whose
throughput varies from run to run, CPU microseconds per request is the steadier figure, and
it says which process a request costs most in."""
import os
import time

ROLES = ("gateway", "tokens", "links", "responses", "webhooks", "redis")
TICK_SECONDS = 1.0 / os.sysconf("SC_CLK_TCK")


def _stat(pid):
    """(comm, ppid, utime + stime in ticks) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    comm = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return comm, int(fields[1]), int(fields[11]) + int(fields[12])


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline") as f:
            return f.read().split("\0")
    except OSError:
        return []


def processes(stack_dir, pg_port, gateway_pid=None):
    """pid -> role: the services and Redis (from their pid files), PostgreSQL's postmaster on
    `pg_port` and its backends. `gateway_pid`: the gateway measured, when not the stack's."""
    roles = {}
    for role in ROLES:
        if role == "gateway" and gateway_pid:
            roles[gateway_pid] = role
            continue
        try:
            with open(os.path.join(stack_dir, "pids", f"{role}.pid")) as f:
                roles[int(f.read().strip())] = role
        except (OSError, ValueError):
            pass
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    postmaster = None
    for pid in pids:
        args = _cmdline(pid)
        if args and args[0].endswith("postgres") and "-p" in args and \
                args[args.index("-p") + 1:args.index("-p") + 2] == [str(pg_port)]:
            postmaster = pid
    if postmaster:
        roles[postmaster] = "postgres"
        for pid in pids:
            stat = _stat(pid)
            if stat and stat[1] == postmaster:
                roles[pid] = "postgres"
    return roles


def snapshot(stack_dir, pg_port, gateway_pid=None):
    """pid -> (role, CPU ticks so far)."""
    out = {}
    for pid, role in processes(stack_dir, pg_port, gateway_pid).items():
        stat = _stat(pid)
        if stat:
            out[pid] = (role, stat[2])
    return out


def per_request(before, after, requests):
    """CPU microseconds per request of each role between two snapshots."""
    spent = {}
    for pid, (role, ticks) in after.items():
        spent[role] = spent.get(role, 0) + ticks - before.get(pid, (role, 0))[1]
    return {role: ticks * TICK_SECONDS * 1e6 / max(requests, 1) for role, ticks in sorted(spent.items())}


def settle(stack_dir, pg_port, gateway_pid=None, idle_cores=0.15, longest=120.0):
    """Waits until the stack spends less than `idle_cores` of CPU over a second (at most
    `longest` seconds), so that a row is not measured beside what the row before it left
    running: autovacuum after a fill, the search index's merges, a checkpoint. Returns the
    seconds waited and the share of a core last seen."""
    waited, busy = 0.0, 0.0
    while waited < longest:
        before = snapshot(stack_dir, pg_port, gateway_pid)
        time.sleep(1.0)
        waited += 1.0
        after = snapshot(stack_dir, pg_port, gateway_pid)
        busy = sum(ticks - before.get(pid, (role, ticks))[1]
                   for pid, (role, ticks) in after.items()) * TICK_SECONDS
        if busy < idle_cores:
            break
    return waited, busy
