"""Dynamic nodes (Slurm's dynamic nodes guide, slurmd(8) -Z/--conf,
scontrol(1) create/delete NodeName=, slurm.conf(5) MaxNodeCount and
NodeSet=): a slurmd -Z registers a node slurm.conf does not list, which
joins the partitions of Nodes=ALL and of NodeSets by its features, runs
jobs, survives a controller SIGKILL (journal and snapshot), and is deleted
when idle.  Bad input (a name that exists, a full table, a non-admin, a
node with a job, a slurm.conf node) is refused with Slurm's messages and
changes nothing."""

import os
import signal

import pytest

import cluster as cl

EXTRA = ("MaxNodeCount=4\n"
         "NodeSet=f1set Feature=f1\n"
         "PartitionName=dyn Nodes=f1set MaxTime=INFINITE State=UP")


def _start_dynamic(c, name, conf="CPUs=2 RealMemory=500 Features=f1"):
    port = cl.free_ports(1)[0]
    os.makedirs(os.path.join(c.dir, "spool", name), exist_ok=True)
    argv = [c.bin("slurmd"), "-D", "-Z", "-N", name,
            "--conf", "%s Port=%d" % (conf, port)]
    d = c._spawn("slurmd-" + name, argv)
    # a name the cluster's own slurmd has (a refused -Z) must not hide
    # that slurmd from the cluster's stop
    c.slurmds.setdefault(name, d)
    return d


def _sinfo_nodes(c, part=None):
    argv = ["sinfo", "-h", "-N", "-o", "%N %t %P"]
    if part:
        argv += ["-p", part]
    r = c.run(argv)
    assert r.rc == 0, r
    return r.out


def _state(c, node):
    return c.show_nodes().get(node, {}).get("State", "")


def test_dynamic_node_runs_jobs_survives_restart_and_is_deleted(new_cluster):
    c = new_cluster(nodes=1, extra_conf=EXTRA)
    _start_dynamic(c, "d1")
    cl.wait_for(lambda: _state(c, "d1").startswith("IDLE"), timeout=30,
                what="d1 registered and idle")
    rec = c.show_nodes()["d1"]
    assert rec["CPUTot"] == "2" and rec["RealMemory"] == "500", rec
    assert rec["AvailableFeatures"] == "f1", rec
    # Nodes=ALL (debug) and the NodeSet by feature (dyn) take it
    assert sorted(rec["Partitions"].split(",")) == ["debug", "dyn"], rec
    assert "d1" in _sinfo_nodes(c, "dyn")
    jid = c.sbatch(["-p", "dyn", "--wrap", "hostname"])
    assert c.wait_done(jid) == "COMPLETED"
    assert c.show_job(jid)["NodeList"] == "d1"

    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    cl.wait_for(lambda: _state(c, "d1").startswith("IDLE"), timeout=60,
                what="d1 back after the controller's SIGKILL")
    assert sorted(c.show_nodes()["d1"]["Partitions"].split(",")) == \
        ["debug", "dyn"]
    jid = c.sbatch(["-w", "d1", "--wrap", "true"])
    assert c.wait_done(jid) == "COMPLETED"

    # deleted once idle: gone from scontrol and sinfo, its name free
    c.kill_slurmd("d1", signal.SIGTERM)
    r = c.run(["scontrol", "delete", "NodeName=d1"])
    assert r.rc == 0, r
    assert "d1" not in c.show_nodes()
    assert "d1" not in _sinfo_nodes(c)
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    c.wait_ready()
    assert "d1" not in c.show_nodes()


def test_bad_requests_are_refused(new_cluster):
    c = new_cluster(nodes=1, extra_conf=EXTRA)
    # a name that exists
    r = c.run(["scontrol", "create", "NodeName=n1", "CPUs=1",
               "State=FUTURE"])
    assert r.rc == 1
    assert "Error creating node(s): Node already exists in the node " \
        "table" in r.err, r
    # not an admin
    user = cl.TEST_USERS[0]
    r = c.run(["scontrol", "create", "NodeName=x1", "State=FUTURE"],
              user=user)
    assert r.rc == 1 and "Error creating node(s)" in r.err, r
    assert "x1" not in c.show_nodes()
    # the table holds MaxNodeCount=4: n1 and three more
    r = c.run(["scontrol", "create", "NodeName=c[1-3]", "CPUs=1",
               "State=CLOUD"])
    assert r.rc == 0, r
    assert all(n in c.show_nodes() for n in ("c1", "c2", "c3"))
    r = c.run(["scontrol", "create", "NodeName=c4", "State=CLOUD"])
    assert r.rc == 1
    assert "Unable to add node, node table is full" in r.err, r
    # a slurm.conf node is not deleted, nor one by a non-admin
    r = c.run(["scontrol", "delete", "NodeName=n1"])
    assert r.rc == 1 and "Error deleting node(s)" in r.err, r
    r = c.run(["scontrol", "delete", "NodeName=c1"], user=user)
    assert r.rc == 1, r
    assert "c1" in c.show_nodes()
    r = c.run(["scontrol", "delete", "NodeName=c1"])
    assert r.rc == 0, r
    assert "c1" not in c.show_nodes()
    # slurmd -Z with a slurm.conf node's name does not start
    d = _start_dynamic(c, "n1")
    d.popen.wait(timeout=30)
    c._forget(d)
    assert d.popen.returncode != 0
    assert "node n1 is in" in open(d.out_path).read()


def test_node_with_a_job_is_not_deleted(new_cluster):
    c = new_cluster(nodes=1, extra_conf=EXTRA)
    # made by scontrol first (FUTURE: waiting), then its slurmd -Z comes
    r = c.run(["scontrol", "create", "NodeName=d3", "CPUs=1",
               "RealMemory=100", "State=FUTURE"])
    assert r.rc == 0, r
    _start_dynamic(c, "d3", conf="CPUs=1 RealMemory=100")
    cl.wait_for(lambda: _state(c, "d3").startswith("IDLE"), timeout=30,
                what="d3 registered and idle")
    _start_dynamic(c, "d2", conf="CPUs=1 RealMemory=200")
    cl.wait_for(lambda: _state(c, "d2").startswith("IDLE"), timeout=30,
                what="d2 idle")
    # no f1 feature: only Nodes=ALL takes it
    assert c.show_nodes()["d2"]["Partitions"] == "debug"
    jid = c.sbatch(["-w", "d2", "--wrap", "sleep 30"])
    c.wait_state(jid, "RUNNING")
    r = c.run(["scontrol", "delete", "NodeName=d2"])
    assert r.rc == 1
    assert "Error deleting node(s): Requested nodes are busy" in r.err, r
    assert "d2" in c.show_nodes()
    c.run(["scancel", str(jid)])


def test_registration_is_answered_once_journaled(new_cluster):
    """slurmd -Z is told its new node is registered only once the node's
    record is on disk.  With a slow journal (every write waits 3 s), a
    controller killed with SIGKILL right after taking the registration
    has not answered it, so slurmd registers the node again with the
    next controller, which then has it; had the answer left first, the
    node would be lost for good (no controller would know to ask)."""
    c = new_cluster(nodes=1, extra_conf=EXTRA)
    c.kill_ctld(signal.SIGTERM)
    c.daemon_env["SLUICE_JOURNAL_DELAY_MS"] = "3000"
    c.start_ctld()
    c.wait_ready()
    _start_dynamic(c, "d4")
    cl.wait_for(lambda: "d4" in c.show_nodes(), timeout=30,
                what="d4 taken by the controller")
    c.kill_ctld(signal.SIGKILL)
    del c.daemon_env["SLUICE_JOURNAL_DELAY_MS"]
    c.start_ctld()
    cl.wait_for(lambda: _state(c, "d4").startswith("IDLE"), timeout=40,
                what="d4 registered again with the restarted controller")
