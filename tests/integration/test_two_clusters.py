"""Two clusters on one slurmdbd (two controllers, one munged, one
MariaDB): each controller registers its address, and the commands of one
cluster reach the other through -M/--clusters: sbatch -M a,b submits
where the job starts first (the idle cluster), squeue/sinfo -M all list
both under "CLUSTER: name", scancel -M b cancels there, sacct -M b / -L
read the other's / every cluster's records, and scontrol, sprio, sdiag,
sshare, srun and salloc take -M as Slurm's do (one cluster, or for srun
and salloc the one that starts the job first)."""

import os
import time

import pytest

import cluster as cl
import mariadb

pytestmark = [
    pytest.mark.skipif(bool(mariadb.missing_tools()),
                       reason="MariaDB server not installed"),
    pytest.mark.skipif(os.environ.get("SLUICE_TEST_AUTH") == "slurm",
                       reason="the two clusters share one munged"),
]

U1 = "sluice_u1"


class Two:
    def __init__(self):
        self.a = mariadb.AcctEnv(tag="two-a", cluster_name="a", nodes=1)
        self.a.c.extra_conf += "\nPriorityType=priority/multifactor"
        self.b = None

    def start(self):
        a = self.a
        a.start()
        a.start_cluster()
        b = cl.Cluster(name="b", nodes=1, tag="two-b")
        ports = cl.free_ports(2)
        b.ctld_port = ports[0]
        b.node_ports = {b.node_names[0]: ports[1]}
        b.extra_conf = a.c.extra_conf          # the same slurmdbd
        b.munge_socket = a.c.munge_socket      # the same munged
        self.b = b
        b.write_conf()
        os.makedirs(os.path.join(b.dir, "spool", "n1"), exist_ok=True)
        b.start_ctld()
        b.start_slurmd("n1")
        b.wait_ready()
        # both controllers registered their address with slurmdbd
        cl.wait_for(lambda: self.registered() == {"a", "b"}, timeout=30,
                    what="both clusters registered")

    def registered(self):
        r = self.a.sacctmgr("-n", "-P", "show", "cluster",
                            "format=Cluster,ControlPort")
        return {l.split("|")[0] for l in r.out.splitlines()
                if l.split("|")[1] not in ("", "0")}

    def stop(self):
        try:
            if self.b:
                self.b.stop()
                self.b.cleanup()
        finally:
            self.a.finish()


@pytest.fixture(scope="module")
def two(users):
    t = Two()
    try:
        t.start()
    except BaseException:
        t.stop()
        raise
    yield t
    t.stop()


def run(two, *argv, user=U1):
    return two.a.c.run(list(argv), user=user)


def test_unknown_cluster_refused(two):
    r = run(two, "scontrol", "-M", "zz", "show", "config")
    assert r.rc == 1 and r.out == "", r
    assert r.err.startswith(
        "scontrol: error: No cluster 'zz' known by database.\n"), r
    r = run(two, "sdiag", "-M", "a,b")
    assert r.rc == 1, r
    assert r.err == "sdiag: error: Only one cluster can be used at a " \
        "time with sdiag\n", r


def test_sbatch_lands_on_the_idle_cluster(two):
    a, b = two.a.c, two.b
    busy = a.sbatch(["--exclusive", "-t", "5", "-o", "/dev/null", "--wrap",
                     "sleep 300"], user=U1)
    a.wait_state(busy, ("RUNNING",))
    try:
        r = run(two, "sbatch", "-M", "a,b", "-N", "1", "--exclusive",
                "-o", "/dev/null", "--wrap", "sleep 300")
        assert r.rc == 0, r
        assert r.out.startswith("Submitted batch job ") and \
            r.out.endswith(" on cluster b\n"), r
        jb = int(r.out.split()[3])
        b.wait_state(jb, ("RUNNING",))
        # squeue -M all: both clusters, each under its name
        r = run(two, "squeue", "-M", "all", "-h", "-o", "%i %T")
        assert r.rc == 0, r
        assert r.out == "CLUSTER: a\n%d RUNNING\n\nCLUSTER: b\n" \
            "%d RUNNING\n" % (busy, jb) or \
            r.out == "CLUSTER: a\n%d RUNNING\nCLUSTER: b\n%d RUNNING\n" % (
                busy, jb), r
        r = run(two, "sinfo", "-M", "all", "-h", "-o", "%P %D %t")
        assert "CLUSTER: a\n" in r.out and "CLUSTER: b\n" in r.out, r
        assert r.out.count("debug* 1 alloc") == 2, r

        # one-cluster commands reach b's controller
        r = run(two, "scontrol", "-M", "b", "show", "job", str(jb))
        assert r.rc == 0 and "JobId=%d " % jb in r.out, r
        assert "JobState=RUNNING" in r.out, r
        r = run(two, "scontrol", "-M", "b", "show", "config", user=None)
        assert "ClusterName             = b\n" in r.out, r
        r = run(two, "scontrol", "show", "config", user=None)
        assert "ClusterName             = a\n" in r.out, r
        r = run(two, "sdiag", "-M", "b", user=None)
        assert r.rc == 0 and "Jobs submitted: 1\n" in r.out, r
        pend = run(two, "sbatch", "-M", "b", "-o", "/dev/null", "--wrap",
                   "true")
        assert pend.rc == 0 and pend.out.endswith(" on cluster b\n"), pend
        jp = int(pend.out.split()[3])
        r = run(two, "sprio", "-M", "b", "-h", "-o", "%i %c")
        assert r.rc == 0 and r.out.split() == [str(jp), "b"], r
        r = run(two, "sprio", "-h", "-o", "%i")
        assert r.out == "", r                  # nothing pending on a

        # scancel -M b: there, not here
        r = run(two, "scancel", "-M", "b", str(jb), str(jp))
        assert r.rc == 0, r
        assert b.wait_done(jb) == "CANCELLED"
        assert a.job_state(busy) == "RUNNING"
    finally:
        a.run(["scancel", str(busy)])
    assert a.wait_done(busy) == "CANCELLED"

    # accounting: each cluster's records, the other's with -M, all with -L
    def ids(*args):
        r = two.a.sacct("-X", "-n", "-P", "-a", "-o", "JobID,Cluster",
                        *args)
        return sorted(r.out.split())
    cl.wait_for(lambda: "%d|b" % jb in ids("-L"), timeout=30,
                what="b's job in sacct")
    assert "%d|b" % jb in ids("-M", "b")
    assert "%d|a" % busy not in ids("-M", "b")
    assert "%d|a" % busy in ids()
    assert "%d|b" % jb not in ids()
    assert {"%d|a" % busy, "%d|b" % jb} <= set(ids("-L"))


def test_srun_and_salloc_on_the_other_cluster(two):
    r = run(two, "srun", "-M", "b", "printenv", "SLURM_CLUSTER_NAME")
    assert r.rc == 0 and r.out == "b\n", r
    r = run(two, "salloc", "-M", "b", "printenv", "SLURM_CLUSTER_NAME")
    assert r.rc == 0 and r.out.endswith("b\n"), r
    r = run(two, "sshare", "-M", "b", "-n", "-P", "-o", "Cluster")
    assert r.rc == 0, r
    assert set(r.out.split()) <= {"b"}, r
