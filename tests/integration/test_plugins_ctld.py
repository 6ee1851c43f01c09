"""slurmctld's policy plugin types (select, sched, priority, preempt,
accounting_storage, topology, mcs, burst_buffer, node_features) as an
admin meets them: a name Sluice does not implement stops slurmctld at
start with Slurm's "cannot create <type> context for <type>/<name>"; the
names it implements start it and act; `scontrol reconfigure` with a bad
name keeps the running controller and its old configuration."""

import re
import subprocess

from test_plugins import start_fails

UNKNOWN = [
    ("SelectType=select/nosuch",
     "cannot create select context for select/nosuch"),
    ("SelectType=select/cons_res",
     "cannot create select context for select/cons_res"),
    ("SchedulerType=sched/wiki",
     "cannot create sched context for sched/wiki"),
    ("PriorityType=priority/nosuch",
     "cannot create priority context for priority/nosuch"),
    ("PreemptType=preempt/nosuch\nPreemptMode=REQUEUE",
     "cannot create preempt context for preempt/nosuch"),
    ("AccountingStorageType=accounting_storage/mysql",
     "cannot create accounting_storage context for "
     "accounting_storage/mysql"),
    ("TopologyPlugin=topology/dragonfly",
     "cannot create topology context for topology/dragonfly"),
    ("MCSPlugin=mcs/label",
     "cannot create mcs context for mcs/label"),
    ("BurstBufferType=burst_buffer/datawarp",
     "cannot create burst_buffer context for burst_buffer/datawarp"),
    ("NodeFeaturesPlugins=node_features/helpers",
     "cannot create node_features context for node_features/helpers"),
]


def test_unknown_names_stop_the_controller(new_cluster):
    c = new_cluster(nodes=1)
    for extra, want in UNKNOWN:
        rc, text = start_fails(c, extra)
        assert rc != 0, extra
        assert want in text, (extra, text[-2000:])


def test_known_names_start(new_cluster):
    """Every built-in name of these types starts the controller."""
    c = new_cluster(nodes=1)
    c.extra_conf = ("SelectType=select/linear\nSchedulerType=sched/builtin\n"
                    "PriorityType=priority/multifactor\n"
                    "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL\n"
                    "TopologyPlugin=topology/flat\nMCSPlugin=mcs/none\n"
                    "AccountingStorageType=accounting_storage/none")
    c.write_conf()
    c.kill_ctld()
    c.start_ctld()
    c.wait_ready()
    r = c.run(["scontrol", "show", "config"])
    assert re.search(r"SelectType\s+=\s+select/linear", r.out), r.out
    for old in ("topology/default", "topology/none"):
        c.extra_conf = "TopologyPlugin=%s" % old
        c.write_conf()
        c.kill_ctld()
        c.start_ctld()
        c.wait_ready()


def test_select_linear_takes_whole_nodes(new_cluster):
    """select/linear: a 1-CPU job holds its whole node (select/cons_tres
    gives it one CPU)."""
    c = new_cluster(nodes=1, extra_conf="SelectType=select/linear")
    jid = str(c.sbatch(["-n1", "--wrap", "sleep 30", "-o", "/dev/null"]))
    c.wait_state(jid, "RUNNING")
    r = c.run(["scontrol", "show", "job", jid])
    m = re.search(r"NumCPUs=(\d+)", r.out)
    n = c.run(["scontrol", "show", "node"])
    cpus = re.search(r"CPUTot=(\d+)", n.out)
    assert m and cpus and int(cpus.group(1)) > 1, n.out
    assert m.group(1) == cpus.group(1), (r.out, n.out)
    c.run(["scancel", jid])


RECONF_BAD = [
    ("SelectType=select/nosuch",
     "cannot create select context for select/nosuch"),
    ("SchedulerType=sched/nosuch",
     "cannot create sched context for sched/nosuch"),
    ("PriorityType=priority/nosuch",
     "cannot create priority context for priority/nosuch"),
    ("PreemptType=preempt/nosuch\nPreemptMode=REQUEUE",
     "cannot create preempt context for preempt/nosuch"),
    ("AccountingStorageType=accounting_storage/nosuch",
     "cannot create accounting_storage context for "
     "accounting_storage/nosuch"),
    ("TopologyPlugin=topology/torus",
     "cannot create topology context for topology/torus"),
    ("MCSPlugin=mcs/user",
     "cannot create mcs context for mcs/user"),
]


def test_reconfigure_keeps_old_config(new_cluster):
    c = new_cluster(nodes=1, extra_conf="PriorityType=priority/multifactor")
    for bad, want in RECONF_BAD:
        c.extra_conf = ("PriorityType=priority/multifactor\n%s\n"
                        "MaxJobCount=7" % bad)
        c.write_conf()
        r = c.run(["scontrol", "reconfigure"])
        assert r.rc != 0, bad
        log = c.log_text()
        assert want in log, (bad, log[-2000:])
        r = c.run(["scontrol", "show", "config"])
        assert re.search(r"PriorityType\s+=\s+priority/multifactor",
                         r.out), r.out
        assert not re.search(r"MaxJobCount\s+=\s+7\b", r.out), bad
    # still the old multifactor controller: sprio has factors
    jid = str(c.sbatch(["--hold", "--wrap", "true", "-o", "/dev/null"]))
    c.run(["scontrol", "release", jid])
    r = c.run(["sprio", "-j", jid])
    assert "Only 'priority/multifactor'" not in r.out + r.err, r.out
