"""The node's plugin types behind plugin contexts (slurmd/common/
node_plugins.c, stepd's proctrack/task/jobacct_gather, common's
acct_gather_energy, mpi, prep and the one-implementation types):

- a name that is no built-in and no .so stops slurmd at start with
  Slurm's "cannot create <type> context for <type>/<name>" (and
  slurmctld for the types it reads), and a reconfigure naming one keeps
  slurmd's old configuration;
- srun --mpi=list lists the built-ins; an unknown --mpi is Slurm's error;
- PrEpPlugins without prep/script runs no Prolog;
- jobacct_gather/cgroup samples usage (before: sampling silently off);
- proctrack/linuxproc tracks the job's process tree.
"""

import os
import re
import subprocess
import time

import pytest

import cluster as cl
from test_cancel_timeout import (describe, marker_sleep,  # noqa: E402
                                 wait_no_procs, wait_running_procs)

USER = "sluice_u1"

NODE_BAD = [
    ("ProctrackType=proctrack/sgi_job",
     "cannot create proctrack context for proctrack/sgi_job"),
    ("TaskPlugin=task/affinity,task/nosuch",
     "cannot create task context for task/nosuch"),
    ("JobAcctGatherType=jobacct_gather/aix",
     "cannot create jobacct_gather context for jobacct_gather/aix"),
    ("AcctGatherEnergyType=acct_gather_energy/ipmi",
     "cannot create acct_gather_energy context for acct_gather_energy/ipmi"),
    ("MpiDefault=pmi3", "cannot create mpi context for mpi/pmi3"),
    ("PrEpPlugins=prep/script,prep/nosuch",
     "cannot create prep context for prep/nosuch"),
    ("SwitchType=switch/hpe_slingshot",
     "cannot create switch context for switch/hpe_slingshot"),
    ("JobContainerType=job_container/cncu",
     "cannot create job_container context for job_container/cncu"),
    ("CredType=cred/none", "cannot create cred context for cred/none"),
]


def slurmd_start_fails(c, node, extra):
    """slurm.conf with extra; slurmd -D for node: (rc, what it said)."""
    c.extra_conf = extra
    c.write_conf()
    c.kill_slurmd(node)
    r = subprocess.run([c.bin("slurmd"), "-D", "-N", node],
                       env=c.env_for(), capture_output=True, text=True,
                       timeout=30)
    return r.returncode, r.stderr + r.stdout


def test_unknown_names_stop_slurmd(new_cluster):
    c = new_cluster(nodes=1)
    node = c.node_names[0]
    for extra, want in NODE_BAD:
        rc, text = slurmd_start_fails(c, node, extra)
        assert rc != 0, extra
        assert want in text, (extra, text[-2000:])
    # cgroup.conf, the cgroup plugins' settings, is read too
    cgconf = os.path.join(c.dir, "etc", "cgroup.conf")
    c.write_file(None, cgconf, "ConstrainCores=maybe\n")
    rc, text = slurmd_start_fails(c, node, "")
    assert rc != 0 and "cgroup.conf" in text, text[-2000:]
    os.unlink(cgconf)
    # and the built-ins all start
    c.extra_conf = ("ProctrackType=proctrack/linuxproc\n"
                    "TaskPlugin=task/affinity,task/cgroup\n"
                    "JobAcctGatherType=jobacct_gather/cgroup\n"
                    "AcctGatherEnergyType=acct_gather_energy/none\n"
                    "MpiDefault=pmi2\nPrEpPlugins=prep/script\n"
                    "SwitchType=switch/none\n"
                    "JobContainerType=job_container/none\n"
                    "CredType=cred/munge\n")
    c.write_conf()
    c.start_slurmd(node)
    c.wait_ready()


def test_unknown_names_stop_slurmctld(new_cluster):
    """The node types slurmctld reads itself."""
    c = new_cluster(nodes=1)
    for extra, want in [
        ("AcctGatherEnergyType=acct_gather_energy/ipmi",
         "cannot create acct_gather_energy context for "
         "acct_gather_energy/ipmi"),
        ("PrEpPlugins=prep/nosuch",
         "cannot create prep context for prep/nosuch"),
        ("SwitchType=switch/hpe_slingshot",
         "cannot create switch context for switch/hpe_slingshot"),
        ("CredType=cred/none", "cannot create cred context for cred/none"),
    ]:
        c.extra_conf = extra
        c.write_conf()
        c.kill_ctld()
        r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                           capture_output=True, text=True, timeout=30)
        text = r.stderr + r.stdout + c.log_text()
        assert r.returncode != 0, extra
        assert want in text, (extra, text[-2000:])


def test_slurmctld_reconfigure_keeps_old_config(new_cluster):
    """A node type slurmctld reads, wrong at reconfigure: the controller
    keeps its configuration (MaxJobCount stays) and says why."""
    c = new_cluster(nodes=1)
    for extra, want in [
        ("PrEpPlugins=prep/nosuch",
         "cannot create prep context for prep/nosuch"),
        ("SwitchType=switch/hpe_slingshot",
         "cannot create switch context for switch/hpe_slingshot"),
    ]:
        c.extra_conf = extra + "\nMaxJobCount=7"
        c.write_conf()
        r = c.run(["scontrol", "reconfigure"])
        assert r.rc != 0, r
        assert want in c.log_text(), (extra, c.log_text()[-2000:])
        r = c.run(["scontrol", "show", "config"])
        assert not re.search(r"MaxJobCount\s+=\s+7\b", r.out), r.out


def test_slurmd_reconfigure_keeps_old_config(new_cluster):
    c = new_cluster(nodes=1)
    node = c.node_names[0]
    jid = c.sbatch(["--wrap", "true", "-o", "/dev/null"], user=USER)
    assert c.wait_done(jid, 60) == "COMPLETED"
    log = c.log_size(node)
    c.extra_conf = "TaskPlugin=task/affinity,task/nosuch"
    c.write_conf()
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r       # slurmctld itself does not read TaskPlugin

    def refused():
        return "Reconfigure failed, keeping the old config: TaskPlugin: " \
               "cannot create task context for task/nosuch" in \
               c.log_since(log, node)
    cl.wait_for(refused, timeout=20, what="slurmd refusing the new file")
    assert "Reconfigured from" not in c.log_since(log, node)
    assert c.slurmds[node].alive()
    # steps keep the old configuration too (slurmstepd reads the file)
    jid = c.sbatch(["--wrap", "true", "-o", "/dev/null"], user=USER)
    assert c.wait_done(jid, 60) == "COMPLETED", c.log_since(log, node)
    # SIGHUP takes the same path
    log = c.log_size(node)
    os.kill(c.slurmds[node].pid, 1)
    cl.wait_for(refused, timeout=20, what="slurmd refusing on SIGHUP")
    assert c.slurmds[node].alive()
    # a good file is taken
    c.extra_conf = "TaskPlugin=task/affinity"
    c.write_conf()
    log = c.log_size(node)
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    cl.wait_for(lambda: "Reconfigured from" in c.log_since(log, node),
                timeout=20, what="slurmd taking the fixed file")
    jid = c.sbatch(["--wrap", "true", "-o", "/dev/null"], user=USER)
    assert c.wait_done(jid, 60) == "COMPLETED"


def test_srun_mpi(cluster):
    c = cluster
    r = c.run(["srun", "--mpi=list"], user=USER)
    assert r.rc == 0, r
    assert r.out.startswith("MPI plugin types are...\n"), r
    for name in ("none", "pmi2", "pmix"):
        assert "\t%s\n" % name in r.out, r
    assert "specific pmix plugin versions available: pmix_v4" in r.out, r
    r = c.run(["srun", "--mpi=pmi3", "-n1", "true"], user=USER)
    assert r.rc == 1, r
    assert "srun: error: --mpi: cannot create mpi context for " \
           "mpi/pmi3" in r.err, r
    assert "srun: error: Invalid MPI type 'pmi3', --mpi=list for " \
           "acceptable types" in r.err, r
    # the built-ins run: pmi2 gives the task its PMI fd
    r = c.run(["srun", "--mpi=pmi2", "-n1", "/bin/sh", "-c",
               "echo $SLURM_MPI_TYPE ${PMI_FD:+fd}"], user=USER)
    assert (r.rc, r.out) == (0, "pmi2 fd\n"), r


def _prolog_cluster(new_cluster, tmp_path, extra):
    mark = tmp_path / "ran"
    prolog = tmp_path / "prolog.sh"
    prolog.write_text("#!/bin/sh\necho $SLURM_JOB_ID >> %s\n" % mark)
    prolog.chmod(0o755)
    os.chmod(tmp_path, 0o777)
    c = new_cluster(nodes=1, extra_conf="Prolog=%s\n%s" % (prolog, extra))
    jid = c.sbatch(["--wrap", "true", "-o", "/dev/null"], user=USER)
    assert c.wait_done(jid, 60) == "COMPLETED"
    return jid, mark


def test_prep_script_runs_the_prolog(new_cluster, tmp_path):
    jid, mark = _prolog_cluster(new_cluster, tmp_path, "")
    assert mark.read_text() == "%d\n" % jid


def test_prep_plugins_without_script_run_no_prolog(new_cluster, tmp_path):
    """PrEpPlugins= (no prep/script): Slurm runs no Prolog."""
    jid, mark = _prolog_cluster(new_cluster, tmp_path, "PrEpPlugins=")
    assert not mark.exists()


def test_jobacct_gather_cgroup_samples(new_cluster):
    """jobacct_gather/cgroup samples every JobAcctGatherFrequency seconds
    (before: the sampler was off and only sstat itself read /proc): a step
    that held 60 MB for 3 s and freed it shows that peak in sstat's
    MaxRSS afterwards.  With one task, the figure is the step cgroup's."""
    c = new_cluster(nodes=1, extra_conf=(
        "ProctrackType=proctrack/cgroup\n"
        "JobAcctGatherType=jobacct_gather/cgroup\n"
        "JobAcctGatherFrequency=1\n"))
    wd = c.workdir(USER)
    freed = os.path.join(wd, "freed")
    prog = c.write_file(USER, os.path.join(wd, "mem.py"),
                        "import time\nx = bytearray(60 * 1024 * 1024)\n"
                        "for i in range(0, len(x), 4096):\n    x[i] = 1\n"
                        "time.sleep(3)\ndel x\n"
                        "open(%r, 'w').close()\ntime.sleep(60)\n" % freed)
    jid = c.sbatch(["-o", "/dev/null", "--wrap",
                    "%s -n1 /usr/bin/python3 %s" % (c.bin("srun"), prog)],
                   user=USER, cwd=wd)
    cl.wait_for(lambda: os.path.exists(freed), timeout=60,
                what="the step freeing its memory")
    text = c.log_text(c.node_names[0])
    m = re.search(r"cgroup: not used for StepId=%d\.0 \((.*)\)" % jid, text)
    if m:
        c.run(["scancel", str(jid)])
        pytest.skip("no usable cgroup hierarchy: " + m.group(1))
    r = c.run(["sstat", "-P", "-n", "-o", "JobID,MaxRSS", "-j",
               "%d.0" % jid], user=USER)
    c.run(["scancel", str(jid)])
    m = re.fullmatch(r"%d\.0\|(\d+)K\n" % jid, r.out)
    assert m and int(m.group(1)) >= 50 * 1024, r
    assert "usage from /proc" not in c.log_text(c.node_names[0])


def test_linuxproc_tracks_the_process_tree(new_cluster):
    """proctrack/linuxproc: a process that left the job's session is still
    a descendant of slurmstepd (its subreaper) and ends with the job."""
    c = new_cluster(nodes=1, extra_conf="ProctrackType=proctrack/linuxproc")
    marker, sl = marker_sleep(c, USER)
    body = ("#!/bin/sh\n%s 1000 &\n( /usr/bin/setsid %s 1003 & )\nwait\n"
            % (sl, sl))
    path = c.write_file(USER, os.path.join(c.workdir(USER),
                                           "lp-%s.sh" % marker), body)
    jid = c.sbatch(["-o", "/dev/null", path], user=USER)
    c.wait_state(jid, "RUNNING", 60)
    pids = wait_running_procs(marker, 2)
    assert len(pids) >= 2, describe(pids)
    assert c.run(["scancel", str(jid)], user=USER).rc == 0
    left = wait_no_procs(marker, c.kill_wait + 5)
    assert not left, describe(left)
    assert c.wait_done(jid, 30) == "CANCELLED"


SITE_TASK = r'''
#include <unistd.h>
#include <stdio.h>
#include "common/plugin.h"
#include "slurmd/stepd/task_plugin.h"

/* in each task's child before exec: no allocation, stderr is the task's */
static void tag(uint32_t gtid, uint32_t lid)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "site task plugin: task %u\n",
			 gtid);

	(void) lid;
	if (n > 0)
		(void) !write(2, line, (size_t) n);
}

static const task_ops_t ops = { .apply = tag };
const struct sluice_plugin sluice_plugin = {
	.type = "task", .name = "sitetag", .abi_version = SLUICE_PLUGIN_ABI,
	.ops_version = TASK_OPS_VERSION, .ops = &ops };
'''


def _plugin_dir(tmp_path):
    d = tmp_path / "plugins"
    d.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(d, 0o755)
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    return d, "%s:%s" % (d, os.path.join(build, "plugins"))


def test_site_task_plugin_is_loaded(new_cluster, tmp_path):
    """A task_<name>.so from PluginDir, listed after a built-in, runs its
    op in every task (TaskPlugin is a list)."""
    d, dirs = _plugin_dir(tmp_path)
    src = d / "task_sitetag.c"
    src.write_text(SITE_TASK)
    r = subprocess.run(["cc", "-shared", "-fPIC", "-I",
                        os.path.join(cl.REPO, "src"), "-o",
                        str(d / "task_sitetag.so"), str(src)],
                       capture_output=True, text=True)
    if r.returncode:
        pytest.skip("cannot build a plugin here: " + r.stderr[-500:])
    c = new_cluster(nodes=1, extra_conf="PluginDir=%s\n"
                    "TaskPlugin=task/affinity,task/sitetag" % dirs)
    r = c.run(["srun", "-n2", "true"], user=USER)
    assert r.rc == 0, r
    assert sorted(r.err.splitlines()) == [
        "site task plugin: task 0", "site task plugin: task 1"], r


def test_so_of_another_type_stops_slurmd(new_cluster, tmp_path):
    """task_x.so that is really the auth/munge plugin."""
    d, dirs = _plugin_dir(tmp_path)
    build = os.environ.get("SLUICE_BUILD_DIR", os.path.join(cl.REPO, "build"))
    with open(os.path.join(build, "plugins", "auth_munge.so"), "rb") as f, \
            open(d / "task_x.so", "wb") as g:
        g.write(f.read())
    c = new_cluster(nodes=1)
    rc, text = slurmd_start_fails(c, c.node_names[0],
                                  "PluginDir=%s\nTaskPlugin=task/x" % dirs)
    assert rc != 0
    assert "cannot create task context for task/x" in text, text[-2000:]
    assert "calls itself auth/munge" in text, text[-2000:]
