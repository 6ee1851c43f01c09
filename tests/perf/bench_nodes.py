#!/usr/bin/python3
"""NODES (16384) emulated nodes on one machine: node_emu (tests/perf/
node_emu.c, EMU_PROCS processes) serves every NodeName over the real
protocol, so the controller sees a registration storm, ping sweeps,
TreeWidth fan-outs and batch launches/ends as from real slurmds.  Prints
`name: value` lines:

  up_s                   node_emu started until every node is idle
  emu_rss_mib            node_emu's RSS (all processes)
  ctld_rss_mib           controller RSS with NODES idle nodes
  sinfo / sinfo -N / scontrol show node / REST GET nodes
                         median ms (hyperfine, RUNS runs) and the
                         controller's CPU ms per call
  ping_ctld_cpu_s_per_min  controller CPU per minute, idle cluster
                         (SlurmdTimeout=PING_TIMEOUT: a ping sweep every
                         timeout/3 s)
  full_job_start_s / full_job_end_s
                         one NODES-node job: submit until RUNNING, its
                         end until every node is idle again
  short_jobs_per_s       SHORT one-node `true` jobs submitted
                         (submit_rpc) until all are done

ORACLE=1: Slurm 22.05 instead (tests/perf/oracle/up.sh, 4 slurmd and
NODES-4 nodes configured without one, ORACLE_EXTRA_NODES; one slurmd per
node is what its daemons need, so 16,384 of them do not fit here):
start-up, the same queries with /usr/bin's commands, idle CPU per minute.
ORACLE_DIR / ORACLE_PORT_BASE as for up.sh.

Run as root: /usr/bin/python3 tests/perf/bench_nodes.py.  Needs
RLIMIT_NOFILE above NODES for node_emu (it raises its own) and NODES
free ports below 32768.  SLUICE_BUILD_DIR selects the build.
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
import cluster  # noqa: E402
from emu_cluster import EmuCluster  # noqa: E402
from bench import median_ms, rss_mib, say  # noqa: E402
from bench_queue import cpu_s  # noqa: E402
from bench_big import low_free_ports  # noqa: E402

NODES = int(os.environ.get("NODES", 16384))
EMU_PROCS = int(os.environ.get("EMU_PROCS", 2))
RUNS = int(os.environ.get("RUNS", 5))
SHORT = int(os.environ.get("SHORT", 2000))
PING_TIMEOUT = int(os.environ.get("PING_TIMEOUT", 30))
IDLE_S = int(os.environ.get("IDLE_S", 60))
REST = os.environ.get("REST", "1") == "1"
USER = os.environ.get("BENCH_USER", "sluice_u1")
BUILD = os.path.abspath(os.environ.get("SLUICE_BUILD_DIR",
                                       os.path.join(HERE, "..", "..", "build")))

cluster.free_ports = low_free_ports


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def counts(c):
    """{compact state: node count} from sinfo."""
    r = c.run(["sinfo", "-h", "-o", "%D %t"], timeout=120)
    out = {}
    for line in r.out.splitlines():
        d, t = line.split()
        out[t] = out.get(t, 0) + int(d)
    return out


def unbound(c):
    """Nodes node_emu could not bind (a port taken meanwhile by some
    other process on this shared machine): they never come up."""
    n = 0
    for i in range(len(c.emus)):
        try:
            n += open(c.emu_log(i)).read().count("unable to bind")
        except OSError:
            pass
    return n


def wait_counts(c, state, n, timeout=1800):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if counts(c).get(state, 0) >= n - unbound(c):
            return time.time() - t0
        time.sleep(0.5)
    raise RuntimeError("not %d %s after %ds: %r" % (n, state, timeout, counts(c)))


def rest_nodes_ms(c, runs):
    import json
    import shlex
    import tempfile
    run = os.path.join(c.dir, "run")
    os.chmod(run, 0o1777)
    sock = os.path.join(run, "rest.sock")
    c.start_restd(USER, ["unix:" + sock], args=["-a", "rest_auth/local"])
    cmd = "curl -sf --unix-socket %s -o /dev/null http://x/slurm/v0.0.43/nodes" % (
        shlex.quote(sock))
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        os.chmod(out.name, 0o666)     # hyperfine runs as USER
        p = subprocess.run(["runuser", "-u", USER, "--", "hyperfine", "-N",
                            "--style", "none", "--warmup", "1", "--runs",
                            str(runs), "--export-json", out.name, cmd],
                           capture_output=True, text=True)
        if p.returncode != 0:
            return "NA (%s)" % p.stderr.strip()[-200:]
        with open(out.name) as f:
            return "%.1f" % (json.load(f)["results"][0]["median"] * 1000)


def oracle():
    import json
    import shlex
    import tempfile
    env = dict(os.environ, ORACLE_NODES="4", ORACLE_EXTRA_NODES=str(NODES - 4),
               ORACLE_MIN_JOB_AGE="2")
    env.setdefault("ORACLE_DIR", "/tmp/oracle-emu")
    odir = env["ORACLE_DIR"]
    up = os.path.join(HERE, "oracle", "up.sh")
    down = os.path.join(HERE, "oracle", "down.sh")
    say("machine", "%d cpus, %s, load %s (Slurm 22.05)" % (
        os.cpu_count(), os.uname().release, load()))
    t0 = time.time()
    try:
        subprocess.run([up, "--fresh"], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        say("up_s", "%.1f (4 slurmd + %d nodes without one)" % (
            time.time() - t0, NODES - 4))
        conf = os.path.join(odir, "etc", "slurm.conf")
        cenv = dict(os.environ, SLURM_CONF=conf)
        pid = int(open(os.path.join(odir, "run", "slurmctld.pid")).read())
        say("ctld_rss_mib", rss_mib(pid))
        for name, argv in (("sinfo", ["sinfo"]), ("sinfo_N", ["sinfo", "-N"]),
                           ("scontrol_show_node", ["scontrol", "show", "node"]),
                           ("scontrol_show_node_one", ["scontrol", "show", "node", "n1"])):
            a = cpu_s(pid)
            with tempfile.NamedTemporaryFile(suffix=".json") as out:
                p = subprocess.run(["hyperfine", "-N", "--style", "none",
                                    "--warmup", "1", "--runs", str(RUNS),
                                    "--export-json", out.name,
                                    " ".join(shlex.quote(x) for x in ["/usr/bin/" + argv[0]] + argv[1:])],
                                   env=cenv, capture_output=True, text=True)
                ms = ("%.1f" % (json.load(open(out.name))["results"][0]["median"] * 1000)
                      if p.returncode == 0 else "NA (%s)" % p.stderr.strip()[-200:])
            b = cpu_s(pid)
            say("%s_median_ms" % name, "%s  ctld_cpu_ms_per_call %.1f" % (
                ms, (b - a) * 1000.0 / (RUNS + 1)))
        a = cpu_s(pid)
        time.sleep(IDLE_S)
        b = cpu_s(pid)
        say("idle_ctld_cpu_s_per_min", "%.2f" % ((b - a) * 60.0 / IDLE_S))
    finally:
        subprocess.run([down, "--purge"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def main():
    c = EmuCluster(nodes=NODES, emu_procs=EMU_PROCS, min_job_age=120,
                   slurmd_timeout=PING_TIMEOUT, debug="info", tag="nodes",
                   extra_conf="MaxJobCount=%d\n" % (SHORT + 10000))
    try:
        say("machine", "%d cpus, %s, load %s" % (os.cpu_count(),
                                                 os.uname().release, load()))
        t0 = time.time()
        cluster.Cluster.start(c, wait=False)   # slurmctld only
        say("ctld_started_s", "%.1f" % (time.time() - t0))
        c0 = cpu_s(c.ctld.pid)
        t0 = time.time()
        c.start_emu()
        took = wait_counts(c, "idle", NODES)
        say("up_s", "%.1f (%d nodes, %d node_emu process(es)), ctld CPU %.1f s"
            % (took, NODES, EMU_PROCS, cpu_s(c.ctld.pid) - c0))
        say("unbound_nodes", unbound(c))
        say("emu_rss_mib", "%.0f" % sum(float(rss_mib(d.pid)) for d in c.emus))
        say("ctld_rss_mib", rss_mib(c.ctld.pid))
        say("load", load())
        for name, argv in (("sinfo", ["sinfo"]),
                           ("sinfo_N", ["sinfo", "-N"]),
                           ("scontrol_show_node", ["scontrol", "show", "node"]),
                           ("scontrol_show_node_one", ["scontrol", "show", "node", "n%d" % NODES])):
            a = cpu_s(c.ctld.pid)
            ms = median_ms(c, argv, runs=RUNS)
            b = cpu_s(c.ctld.pid)
            say("%s_median_ms" % name, "%s  ctld_cpu_ms_per_call %.1f" % (
                ms, (b - a) * 1000.0 / (RUNS + 1)))
        if REST:
            a = cpu_s(c.ctld.pid)
            ms = rest_nodes_ms(c, RUNS)
            b = cpu_s(c.ctld.pid)
            say("rest_get_nodes_median_ms", "%s  ctld_cpu_ms_per_call %.1f" % (
                ms, (b - a) * 1000.0 / (RUNS + 1)))

        # idle: the ping sweeps (SlurmdTimeout/3) are all the work there is
        a = cpu_s(c.ctld.pid)
        e0 = sum(cpu_s(d.pid) for d in c.emus)
        time.sleep(IDLE_S)
        b = cpu_s(c.ctld.pid)
        e1 = sum(cpu_s(d.pid) for d in c.emus)
        say("ping_ctld_cpu_s_per_min", "%.2f (SlurmdTimeout=%d, node_emu %.2f)"
            % ((b - a) * 60.0 / IDLE_S, PING_TIMEOUT, (e1 - e0) * 60.0 / IDLE_S))

        # one job on every node
        t0 = time.time()
        full = NODES - unbound(c)
        jid = c.sbatch(["-N", str(full), "--wrap", "sleep 5"])
        c.wait_state(jid, ["RUNNING"], timeout=600)
        say("full_job_start_s", "%.2f (%d nodes)" % (time.time() - t0, full))
        c.wait_done(jid, timeout=600)
        t0 = time.time()
        wait_counts(c, "idle", NODES, timeout=600)
        say("full_job_end_s", "%.2f (done until all %d idle)" % (time.time() - t0, NODES))

        # short one-node jobs across the nodes
        exe = os.path.join(BUILD, "tests", "submit_rpc")
        t0 = time.time()
        p = subprocess.run([exe, str(SHORT), "8"], env=dict(os.environ, **c.env_for()),
                           capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError("submit_rpc: %s %s" % (p.stdout, p.stderr))
        while True:
            r = c.run(["squeue", "-h", "-o", "%i"], timeout=120)
            if r.rc == 0 and not r.out.strip():
                break
            time.sleep(0.2)
        took = time.time() - t0
        say("short_jobs_per_s", "%.0f (%d jobs in %.1f s)" % (SHORT / took, SHORT, took))
        say("ctld_rss_mib_end", rss_mib(c.ctld.pid))
        say("load_end", load())
    finally:
        t0 = time.time()
        c.stop(cancel=False)
        c.cleanup()
        say("stop_s", "%.1f" % (time.time() - t0))


if __name__ == "__main__":
    if os.environ.get("ORACLE") == "1":
        oracle()
    else:
        main()
