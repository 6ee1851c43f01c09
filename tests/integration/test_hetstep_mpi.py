"""One srun step over several het job components (issue 28).

Inside `salloc -N1 -n2 : -N1 -n1`, `srun --het-group=0,1 cmd` and
`srun [opts] cmd0 : [opts] cmd1` launch one step: a step in each
component (J+0.S and J+1.S, the same S), tasks numbered 0..2 across the
components, SLURM_NTASKS=3 in every task, SLURM_HET_SIZE and the
SLURM_STEP_*_HET_GROUP_<n> variables; -l labels with the global rank; the
exit code is the highest task's.  --mpi=pmi2 makes one PMI world: a put,
fence and get across the components sees every rank's key.  What Sluice
cannot do is refused before anything runs; scancel J.S of the leader's
step ends the step in every component.

One cluster: 2 nodes of 2 CPUs (each component on a node of its own).
"""

import os
import subprocess
import sys
import threading

import pytest

import cluster as cl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import het_cluster  # noqa: E402
import mariadb  # noqa: E402

U1 = "sluice_u1"


@pytest.fixture(scope="module")
def hc(users):
    yield from het_cluster.run("hetmpi")


def in_het(c, script, timeout=90):
    """Run script under `salloc -N1 -n2 : -N1 -n1` as U1; {srun} etc. in
    it are the commands' paths."""
    cmd = script.format(srun=c.bin("srun"), squeue=c.bin("squeue"),
                        scancel=c.bin("scancel"), sacct=c.bin("sacct"),
                        scontrol=c.bin("scontrol"), sstat=c.bin("sstat"))
    return c.run(["salloc", "-N1", "-n2", ":", "-N1", "-n1", "sh", "-c",
                  cmd], user=U1, cwd=c.workdir(U1), timeout=timeout)


def labelled(out, marker):
    """'-l' lines 'R: marker ...' as {rank: [words after marker]}."""
    got = {}
    for line in out.splitlines():
        rank, _, rest = line.partition(": ")
        w = rest.split()
        if w and w[0] == marker and rank.strip().isdigit():
            got[int(rank)] = w[1:]
    return got


ENV = ("echo E $SLURM_PROCID $SLURM_NTASKS $SLURM_HET_SIZE $SLURMD_NODENAME "
       "$SLURM_STEP_ID $SLURM_NTASKS_HET_GROUP_0 $SLURM_NTASKS_HET_GROUP_1 "
       "$SLURM_NODEID $SLURM_LOCALID $SLURM_STEP_NUM_NODES "
       "$SLURM_STEP_TASKS_PER_NODE $SLURM_TASKS_PER_NODE_HET_GROUP_1 "
       "$SLURM_JOB_ID")


def test_bad_specs_are_refused(hc):
    # inside an allocation that is not a het job
    r = hc.run(["salloc", "-n1", "sh", "-c",
                "%s -n1 true : -n1 true; echo RC=$?" % hc.bin("srun")],
               user=U1)
    assert r.rc == 0 and "RC=1" in r.out, r
    assert "srun: error: srun A : B inside an allocation that is not a " \
        "heterogeneous job" in r.err, r
    r = hc.run(["srun", "--het-group=0,1", "true"], user=U1)
    assert r.rc == 1, r
    assert "not inside a heterogeneous job allocation" in r.err, r
    r = in_het(hc, """
{srun} -n1 true : -n1 true : -n1 true; echo THREE=$?
{srun} --het-group=0,0 true; echo TWICE=$?
{srun} --het-group=0-2 true; echo PAST=$?
{srun} --het-group=0,1 --mpi=pmix true; echo PMIX=$?
{srun} --het-group=0 true : -n1 true; echo BOTH=$?
{srun} -n1 : -n1; echo NOCMD=$?
echo DONE
""")
    assert r.rc == 0, r
    for k in ("THREE", "TWICE", "PAST", "PMIX", "BOTH", "NOCMD"):
        assert "%s=1" % k in r.out, (k, r)
    assert ("srun: error: Attempt to run a job step with het group value "
            "of 2, but the job allocation has maximum value of 1") in r.err
    assert "--mpi=pmix (use --mpi=pmi2) is not supported in a step over " \
        "several heterogeneous job components" in r.err, r
    assert "--het-group cannot be used with ':'" in r.err, r
    assert "No command given to execute" in r.err, r
    # nothing ran: no step was ever created
    assert " E " not in r.out


def test_srun_creates_the_het_job_and_the_step(hc):
    r = hc.run(["srun", "-l", "-n2", "sh", "-c",
                "echo O $SLURM_PROCID $SLURM_NTASKS $SLURM_HET_SIZE "
                "$SLURM_JOB_ID_HET_GROUP_1", ":", "-n1", "sh", "-c",
                "echo O $SLURM_PROCID $SLURM_NTASKS $SLURM_HET_SIZE "
                "$SLURM_JOB_ID_HET_GROUP_1; exit 4"], user=U1, timeout=90)
    assert r.rc == 4, r
    got = labelled(r.out, "O")
    assert sorted(got) == [0, 1, 2], r
    comp1 = int(got[0][3])
    assert all(v[:3] == [str(k), "3", "2"] for k, v in got.items()), r
    lead = comp1 - 1
    # one het job, released by srun with the step's exit code: every
    # component ends with it
    cl.wait_for(lambda: hc.run(["squeue", "-h", "-t", "all", "-j",
                                str(lead), "-o", "%i %T"]).out.split()
                == ["%d+0" % lead, "FAILED", "%d+1" % lead, "FAILED"],
                30, "both components ended")


def test_het_group_list_one_step_global_ranks(hc):
    r = in_het(hc, """
{srun} --het-group=1 true
{srun} --het-group=0,1 -l sh -c '%s'
echo RC=$? LEAD=$SLURM_JOB_ID
""" % ENV)
    assert r.rc == 0, r
    got = labelled(r.out, "E")
    assert sorted(got) == [0, 1, 2], r
    nodes = {k: v[3] for k, v in got.items()}
    assert nodes[0] == nodes[1] != nodes[2], r
    lead = r.out.split("LEAD=")[1].split()[0]
    for rank, v in got.items():
        # rank, total tasks, components, -, step 1 in both (component
        # 1 had used step 0), per-group task counts, node index over the
        # whole step, local id, the step's nodes and tasks per node (as
        # Slurm 22.05 sets them), the leader's job id
        assert v[0] == str(rank), (rank, v)
        assert v[1:3] == ["3", "2"], (rank, v)
        assert v[4:7] == ["1", "2", "1"], (rank, v)
        assert v[9:13] == ["2", "2,1", "1", lead], (rank, v)
    assert [got[k][7:9] for k in (0, 1, 2)] == [["0", "0"], ["0", "1"],
                                                 ["1", "0"]], r
    assert "RC=0" in r.out, r


def test_colon_components_commands_and_exit_code(hc):
    r = in_het(hc, """
{srun} -l -n2 sh -c 'echo A $SLURM_PROCID $SLURM_NTASKS' : -n1 sh -c 'echo B $SLURM_PROCID $SLURM_NTASKS'
echo RC1=$?
{srun} -n1 sh -c 'exit 3' : -n1 sh -c 'exit 5'
echo RC2=$?
{srun} -n1 : -n1 sh -c 'echo SAME $SLURM_PROCID'
""")
    assert r.rc == 0, r
    assert labelled(r.out, "A") == {0: ["0", "3"], 1: ["1", "3"]}, r
    assert labelled(r.out, "B") == {2: ["2", "3"]}, r
    assert "RC1=0" in r.out and "RC2=5" in r.out, r
    assert sorted(l for l in r.out.splitlines() if l.startswith("SAME")) \
        == ["SAME 0", "SAME 1"], r


PMI_CLIENT = r'''
import os, socket
fd = int(os.environ["PMI_FD"])
s = socket.socket(fileno=fd)
f = s.makefile("rw")
def cmd(line):
    f.write(line + "\n"); f.flush()
    return dict(kv.split("=", 1) for kv in f.readline().split())
r = cmd("cmd=init pmi_version=1 pmi_subversion=1")
assert r["rc"] == "0", r
kvs = cmd("cmd=get_my_kvsname")["kvsname"]
rank, size = int(os.environ["PMI_RANK"]), int(os.environ["PMI_SIZE"])
node = os.environ["SLURMD_NODENAME"]
assert cmd("cmd=put kvsname=%s key=k%d value=%s" % (kvs, rank, node))["rc"] == "0"
assert cmd("cmd=barrier_in")["cmd"] == "barrier_out"
seen = [cmd("cmd=get kvsname=%s key=k%d" % (kvs, o))["value"]
        for o in range(size)]
m = cmd("cmd=get kvsname=%s key=PMI_process_mapping" % kvs)["value"]
print("PMI %d %d %s %s %s" % (rank, size, kvs, ",".join(seen), m))
assert cmd("cmd=finalize")["cmd"] == "finalize_ack"
'''


def test_pmi2_exchange_across_components(hc):
    d = hc.workdir(U1)
    path = hc.write_file(U1, os.path.join(d, "het_pmi.py"), PMI_CLIENT)
    r = in_het(hc, """
{srun} --mpi=pmi2 --het-group=0,1 /usr/bin/python3 %s
echo RC=$?
""" % path)
    assert r.rc == 0 and "RC=0" in r.out, r
    lines = sorted(l.split() for l in r.out.splitlines()
                   if l.startswith("PMI "))
    assert [l[1] for l in lines] == ["0", "1", "2"], r
    # one world: same size and job id, every rank saw every rank's key
    # (ranks 0-1 on component 0's node, rank 2 on component 1's)
    assert {l[2] for l in lines} == {"3"}, r
    assert len({l[3] for l in lines}) == 1, r
    seen = {l[4] for l in lines}
    assert len(seen) == 1, r
    a, b, c = seen.pop().split(",")
    assert a == b != c, r
    assert {l[5] for l in lines} == {"(vector,(0,1,2),(1,1,1))"}, r


PMI2_PROG = r'''
#include <slurm/pmi2.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int spawned, size, rank, appnum, len, sum = 0;
	char jobid[256], key[64], val[PMI2_MAX_VALLEN];

	if (PMI2_Init(&spawned, &size, &rank, &appnum) ||
	    PMI2_Job_GetId(jobid, sizeof(jobid)))
		return 1;
	snprintf(key, sizeof(key), "k%d", rank);
	snprintf(val, sizeof(val), "%d", (rank + 1) * 10);
	if (PMI2_KVS_Put(key, val) || PMI2_KVS_Fence())
		return 2;
	for (int r = 0; r < size; r++) {
		snprintf(key, sizeof(key), "k%d", r);
		if (PMI2_KVS_Get(jobid, r, key, val, sizeof(val), &len))
			return 3;
		sum += atoi(val);
	}
	printf("P2 %d of %d sum %d\n", rank, size, sum);
	return PMI2_Finalize() ? 4 : 0;
}
'''


def test_libpmi2_across_components(hc):
    if not os.path.exists("/usr/include/slurm/pmi2.h"):
        pytest.skip("libpmi2-0-dev is not installed (scripts/install-deps.sh)")
    d = hc.workdir(U1)
    src = hc.write_file(U1, os.path.join(d, "het_pmi2.c"), PMI2_PROG)
    exe = os.path.join(d, "het_pmi2")
    subprocess.run(["cc", "-o", exe, src, "-lpmi2"], check=True)
    os.chmod(exe, 0o755)
    r = in_het(hc, "{srun} --mpi=pmi2 -n2 %s : -n1 %s" % (exe, exe))
    assert r.rc == 0, r
    assert sorted(l for l in r.out.splitlines() if l.startswith("P2")) == \
        ["P2 %d of 3 sum 60" % k for k in range(3)], r


def test_squeue_steps_and_scancel_of_the_step(hc):
    r = in_het(hc, """
{srun} --het-group=0,1 sleep 120 &
sleep 3
echo LEAD=$SLURM_JOB_ID_HET_GROUP_0
{squeue} -h -s -o '%i' | grep -v extern | sort
{scancel} $SLURM_JOB_ID_HET_GROUP_0.0
wait $!; echo SRUN=$?
{squeue} -h -s -o '%i' | grep -v extern | sort; echo LEFT
""", timeout=120)
    assert r.rc == 0, r
    lead = int(r.out.split("LEAD=")[1].split()[0])
    before, after = r.out.split("SRUN=")
    # each component's step, the same step id (shown by component id)
    assert before.split() == ["LEAD=%d" % lead, "%d.0" % lead,
                              "%d.0" % (lead + 1)], r
    assert not after.startswith("0"), r
    assert after.split() [1:] == ["LEFT"], r
    for jid in (lead, lead + 1):
        assert "*** STEP %d.0 ON n" % jid in r.err, r


def test_component_step_by_het_id(hc):
    # "J+K.S" names component K's step S (its own id is C.S, as squeue -s
    # and scontrol show it, like Slurm): scontrol show step, sstat and
    # scancel take it; a component that does not exist is an error.
    r = in_het(hc, """
{srun} --het-group=1 sleep 120 &
sleep 2
{srun} --het-group=0 sleep 120 &
sleep 2
L=$SLURM_JOB_ID
echo LEAD=$L
{scontrol} -o show step $L+1.0 | cut -d' ' -f1
{sstat} -n -P -j $L+1.0 -o JobID,NTasks | sed 's/^/SSTAT /'
{scontrol} show step $L+7.0; echo SHOW7=$?
{scancel} $L+7.0; echo CANCEL7=$?
{scancel} $L+1.0; echo CANCEL1=$?
sleep 2
{squeue} -h -s -o '%i' | grep -v extern | sed 's/^/LEFT /'
{scancel} $L.1
wait
""", timeout=120)
    lead = int(r.out.split("LEAD=")[1].split()[0])
    comp = lead + 1
    assert "StepId=%d.0" % comp in r.out.split(), r
    assert "SSTAT %d.0|1" % comp in r.out, r
    assert "SHOW7=1" in r.out and "CANCEL7=1" in r.out, r
    assert "Invalid job step id: %d+7.0" % lead in r.err, r
    assert "CANCEL1=0" in r.out, r
    left = [l.split()[1] for l in r.out.splitlines()
            if l.startswith("LEFT ")]
    # the component's step went; the leader's (step 1: the id is kept
    # free in every component) runs on
    assert left == ["%d.1" % lead], r


def test_sacct_step_row_per_component(hc):
    if not hc.acct:
        pytest.skip("no MariaDB here: " + ", ".join(mariadb.missing_tools()))
    r = in_het(hc, "{srun} -n2 true : -n1 true; echo LEAD=$SLURM_JOB_ID")
    assert r.rc == 0, r
    lead = r.out.split("LEAD=")[1].split()[0]

    def rows():
        x = hc.acct.sacct("-P", "-n", "-o", "JobIDRaw,NTasks,State",
                          "-j", "%s,%d" % (lead, int(lead) + 1), user=U1)
        return [l for l in x.out.splitlines() if ".0|" in l]
    want = ["%s.0|2|COMPLETED" % lead, "%d.0|1|COMPLETED" % (int(lead) + 1)]
    cl.wait_for(lambda: sorted(rows()) == want, 30, "both step rows")
    # JobID names a component's step J+K.S (JobIDRaw keeps C.S), as
    # Slurm's sacct; -j J+1.0 selects that one
    x = hc.acct.sacct("-P", "-n", "-o", "JobID,JobIDRaw", "-j", lead,
                      user=U1)
    got = [l for l in x.out.splitlines() if ".0|" in l]
    assert sorted(got) == ["%s+0.0|%s.0" % (lead, lead),
                           "%s+1.0|%d.0" % (lead, int(lead) + 1)], x
    x = hc.acct.sacct("-P", "-n", "-o", "JobID", "-j", lead + "+1.0",
                      user=U1)
    assert x.out.split() == ["%s+1.0" % lead], x
    x = hc.acct.sacct("-P", "-n", "-X", "-o", "JobID", "-j", lead + "+1",
                      user=U1)
    assert x.out.split() == ["%s+1" % lead], x
    # the leader's step id names that step in every component (Slurm)
    x = hc.acct.sacct("-P", "-n", "-o", "JobID", "-j", lead + ".0",
                      user=U1)
    assert sorted(x.out.split()) == ["%s+0.0" % lead, "%s+1.0" % lead], x
    x = hc.acct.sacct("-P", "-n", "-o", "JobID", "-j", lead + "+x",
                      user=U1)
    assert x.rc == 1 and "Bad job/step specified: %s+x" % lead in x.err, x


def test_srun_wide_options_apply_per_component(hc):
    # As Slurm's srun: -l, -o/-e, -K, -W are each component's own, and a
    # later component takes what the one before gave where it gives none
    # (heterogeneous_jobs.html, propagated options).
    d = hc.workdir(U1)
    r = in_het(hc, """
{srun} -n1 echo A1 : -l -n1 echo B1
{srun} -l -n1 echo A2 : -n1 echo B2
{srun} -o c0_%j_%s.out -n1 echo A3 : -o c1_%j_%s.out -n1 echo B3
{srun} -o d_%j.out -n1 echo A4 : -n1 echo B4
{srun} -o same.out -n1 echo A5 : -n1 echo B5
{srun} -n1 echo A6 : -o e1.out -n1 echo B6
{srun} --open-mode=append -o app_%j.out -n1 echo A7 : -n1 echo B7
{srun} --open-mode=append -o app_%j.out -n1 echo A7 : -n1 echo B7
{srun} -n1 true : -i none -n1 true; echo INPUT=$?
T=$(date +%s); {srun} -n1 sleep 60 : -K -n1 sh -c 'exit 3'
echo KILL=$? $(( $(date +%s) - T ))
T=$(date +%s); {srun} -K -n1 sh -c 'exit 3' : -n1 sleep 60
echo KILL0=$? $(( $(date +%s) - T ))
T=$(date +%s); {srun} -n1 sleep 60 : -W 1 -n1 true
echo WAIT=$? $(( $(date +%s) - T ))
echo LEAD=$SLURM_JOB_ID
""", timeout=150)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    lead = int(r.out.split("LEAD=")[1].split()[0])
    # -l only in the second component labels only its tasks
    assert "A1" in lines and "1: B1" in lines, r
    # -l in the first: both (propagated)
    assert "0: A2" in lines and "1: B2" in lines, r
    # each component's own file, its own job id in %j
    step = {}
    for name in os.listdir(d):
        if name.endswith(".out"):
            with open(os.path.join(d, name)) as f:
                step[name] = f.read().split()
    c0 = [n for n in step if n.startswith("c0_%d_" % lead)]
    c1 = [n for n in step if n.startswith("c1_%d_" % (lead + 1))]
    assert len(c0) == len(c1) == 1, (step, r)
    assert step[c0[0]] == ["A3"] and step[c1[0]] == ["B3"], step
    assert c0[0].split("_")[2] == c1[0].split("_")[2], step  # one step id
    # -o in the first only: propagated, one file per component
    assert step["d_%d.out" % lead] == ["A4"], step
    assert step["d_%d.out" % (lead + 1)] == ["B4"], step
    # one name for both: one file with both components' output
    assert sorted(step["same.out"]) == ["A5", "B5"], step
    # -o in the second only: the first writes to srun's stdout
    assert "A6" in lines and "B6" not in lines, r
    assert step["e1.out"] == ["B6"], step
    # --open-mode propagates with -o: each component appends to its own
    assert step["app_%d.out" % lead] == ["A7", "A7"], step
    assert step["app_%d.out" % (lead + 1)] == ["B7", "B7"], step
    # stdin is the whole step's: a different -i later is refused
    assert "INPUT=1" in r.out, r
    assert "srun: error: --input applies to the whole step: give it in " \
        "the first component" in r.err, r
    # -K (given in either component) ends the step when one of its
    # component's tasks fails; -W likewise
    for k in ("KILL", "KILL0", "WAIT"):
        rc, secs = r.out.split(k + "=")[1].split()[:2]
        assert rc != "0" and int(secs) < 30, (k, r)
    assert "First task exited 1s ago" in r.err, r


def test_failed_component_launch_reaps_started_tasks(hc):
    # Component 1's node refuses the launch (its slurmd is gone) after
    # component 0's tasks started: srun kills and waits for them, so none
    # outlives srun, and it exits 1.
    d = hc.workdir(U1)
    flag, go = os.path.join(d, "hetfail.node"), os.path.join(d, "hetfail.go")
    done = os.path.join(d, "hetfail.done")
    for p in (flag, go, done):
        if os.path.exists(p):
            os.unlink(p)
    script = """
echo $SLURM_JOB_NODELIST_HET_GROUP_1 > {flag}.tmp; mv {flag}.tmp {flag}
while [ ! -f {go} ]; do sleep 0.2; done
S=4171
{srun} -n1 sh -c "exec sleep $S" : -n1 true
echo RC=$?
pgrep -f "sleep $S" >/dev/null && echo ORPHAN || echo CLEAN
touch {done}
while [ -f {go} ]; do sleep 0.2; done
""".replace("{flag}", flag).replace("{go}", go).replace("{done}", done)
    res, node = {}, None
    t = threading.Thread(target=lambda: res.update(r=in_het(hc, script,
                                                            timeout=150)))
    t.start()
    try:
        cl.wait_for(lambda: os.path.exists(flag), 60, "the allocation")
        with open(flag) as f:
            node = f.read().strip()
        hc.kill_slurmd(node)
        open(go, "w").close()
        cl.wait_for(lambda: os.path.exists(done), 90, "srun's end")
    finally:
        if node and (hc.slurmds.get(node) is None or
                     not hc.slurmds[node].alive()):
            hc.start_slurmd(node)
        if os.path.exists(go):
            os.unlink(go)
        t.join(150)
    r = res["r"]
    assert r.rc == 0, r
    assert "RC=1" in r.out and "CLEAN" in r.out, r
    assert "Task launch for StepId=" in r.err, r
    # srun saw component 0's task end: it killed and waited for it
    assert ": task 0: Killed" in r.err, r
    assert not cl.live_procs_matching("sleep 4171"), r
    hc.wait_ready(60)
