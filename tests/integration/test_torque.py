"""contrib/torque: the PBS commands (qsub, qstat, qdel, qhold, qrls,
qrerun, pbsnodes) over a Sluice cluster.

Checked against Slurm 22.05's wrappers (Debian's slurm-wlm-torque, as a
black box): qsub prints the job id alone and, without -o/-e, writes
<script>.o<id> and <script>.e<id>; qstat's table is
"Job id / Name / Username / Time Use / S / Queue" with Q, R, C states;
pbsnodes prints each node's state (free for idle), np and status line.
"""

import os
import re
import shutil

from cluster import REPO, wait_for  # noqa: E402

U = "sluice_u1"
CMDS = ("qsub", "qstat", "qdel", "qhold", "qrls", "qrerun", "pbsnodes",
        "mpiexec.slurm")


def _tools(c):
    d = os.path.join(c.dir, "torque")
    if not os.path.isdir(d):
        os.makedirs(d)
        shutil.copy(os.path.join(REPO, "contrib", "torque",
                                 "pbs_wrappers.py"), d)
        os.chmod(d, 0o755)
        os.chmod(os.path.join(d, "pbs_wrappers.py"), 0o755)
        for n in CMDS:
            os.symlink("pbs_wrappers.py", os.path.join(d, n))
    return d


def q(c, cmd, args, user=U, cwd=None):
    env = {"SLUICE_BINDIR": os.path.dirname(c.bin("sbatch"))}
    return c.run([os.path.join(_tools(c), cmd)] + list(args), user=user,
                 cwd=cwd, env=env)


PBS = """#!/bin/bash
#PBS -N pbsjob
#PBS -l nodes=2:ppn=2,walltime=00:05:00
echo "workdir=$PBS_O_WORKDIR"
echo "nodes=$SLURM_JOB_NUM_NODES tasks=$SLURM_NTASKS"
sleep 3
"""


def test_qsub_qstat(cluster):
    c = cluster
    wd = c.workdir(U)
    c.write_file(U, os.path.join(wd, "pbs.sh"), PBS, 0o755)
    r = q(c, "qsub", ["pbs.sh"], cwd=wd)
    assert r.rc == 0, r.err
    assert re.fullmatch(r"\d+\n", r.out), r.out
    jid = int(r.out)
    c.wait_state(jid, ["RUNNING"], timeout=30)
    rec = c.show_job(jid)
    assert rec["NumNodes"] == "2" and rec["NumTasks"] == "4", rec
    assert rec["TimeLimit"] == "00:05:00", rec
    r = q(c, "qstat", [])
    assert r.rc == 0, r.err
    lines = r.out.splitlines()
    assert lines[0].split() == ["Job", "id", "Name", "Username", "Time",
                                "Use", "S", "Queue"], r.out
    row = [ln for ln in lines if ln.startswith("%d " % jid)]
    assert row and row[0].split()[1:3] == ["pbsjob", U], r.out
    assert row[0].split()[4] == "R" and row[0].split()[5] == "debug", r.out
    r = q(c, "qstat", ["-f", str(jid)])
    assert "\tJob_Name = pbsjob\n" in r.out and "\tjob_state = R\n" in r.out
    assert "\tResource_List.nodect = 2\n" in r.out, r.out
    st = c.wait_done(jid)
    assert st == "COMPLETED"
    out = open(os.path.join(wd, "pbs.sh.o%d" % jid)).read()
    assert "workdir=%s\n" % wd in out and "nodes=2 tasks=4\n" in out, out
    assert os.path.exists(os.path.join(wd, "pbs.sh.e%d" % jid))


def test_qhold_qrls_qdel(cluster):
    c = cluster
    wd = c.workdir(U)
    c.write_file(U, os.path.join(wd, "h.sh"), "#!/bin/sh\nsleep 60\n", 0o755)
    r = q(c, "qsub", ["-h", "-N", "held", "-l", "walltime=1:00", "h.sh"],
          cwd=wd)
    assert r.rc == 0, r.err
    jid = int(r.out)
    rec = c.show_job(jid)
    assert rec["JobState"] == "PENDING" and rec["Priority"] == "0", rec
    assert rec["TimeLimit"] == "00:01:00", rec
    assert q(c, "qrls", [str(jid)]).rc == 0
    wait_for(lambda: c.show_job(jid)["Priority"] != "0", timeout=20,
             what="release")
    r = q(c, "qdel", [str(jid)])
    assert r.rc == 0, r.err
    wait_for(lambda: c.show_job(jid)["JobState"] == "CANCELLED",
             timeout=20, what="cancel")
    r = q(c, "qstat", ["-u", U])
    assert [ln for ln in r.out.splitlines()
            if ln.startswith("%d " % jid)][0].split()[4] == "C", r.out
    r = q(c, "qstat", ["999999"])
    assert r.rc == 153 and "Unknown Job Id 999999" in r.err, r


def test_pbsnodes(cluster):
    c = cluster
    r = q(c, "pbsnodes", [], user=None)
    assert r.rc == 0, r.err
    blocks = [b for b in r.out.split("\n\n") if b.strip()]
    assert len(blocks) == len(c.node_names), r.out
    first = blocks[0].splitlines()
    assert first[0] == c.node_names[0], r.out
    assert re.fullmatch(r"    state = (free|job-exclusive|mixed)", first[1])
    assert re.fullmatch(r"    np = \d+", first[2]), r.out
    assert "slurmstate=" in first[4] and ",ncpus=" in first[4], r.out
    node = c.node_names[-1]
    assert c.run(["scontrol", "update", "NodeName=" + node, "State=DRAIN",
                  "Reason=pbs"]).rc == 0
    try:
        r = q(c, "pbsnodes", ["-l"], user=None)
        assert re.search(r"^%s +offline$" % node, r.out, re.M), r.out
    finally:
        c.run(["scontrol", "update", "NodeName=" + node, "State=RESUME"])


def test_bad_options(cluster):
    c = cluster
    r = q(c, "qsub", ["-Z", "x.sh"])
    assert r.rc != 0 and "qsub: invalid option -Z" in r.err, r
    r = q(c, "qsub", ["-W", "umask=022", "x.sh"])
    assert r.rc != 0 and "-W umask=022 is not supported" in r.err, r
    r = q(c, "qdel", [])
    assert r.rc != 0 and "Usage: qdel" in r.err, r


MPI = """#!/bin/bash
#PBS -l nodes=2:ppn=2
%s -n 3 /bin/sh -c 'echo rank=$SLURM_PROCID on=$SLURMD_NODENAME'
%s hostname
"""


def test_mpiexec_in_a_pbs_script(cluster):
    """mpiexec.slurm runs the program as srun over the job's allocation:
    -n 3 gives three ranks, none the whole allocation (4 tasks)."""
    c = cluster
    wd = c.workdir(U)
    mpx = os.path.join(_tools(c), "mpiexec.slurm")
    c.write_file(U, os.path.join(wd, "mpi.sh"), MPI % (mpx, mpx), 0o755)
    r = q(c, "qsub", ["mpi.sh"], cwd=wd)
    assert r.rc == 0, r.err
    jid = int(r.out)
    assert c.wait_done(jid) == "COMPLETED", c.show_job(jid)
    out = open(os.path.join(wd, "mpi.sh.o%d" % jid)).read()
    ranks = sorted(re.findall(r"rank=(\d+) on=n\d+", out))
    assert ranks == ["0", "1", "2"], out
    # no -n: one hostname a task of the allocation (the nodes share this
    # machine's name)
    hosts = [ln for ln in out.splitlines() if ln and "rank=" not in ln]
    assert len(hosts) == 4, out
    # outside a job, and a bad option
    r = q(c, "mpiexec.slurm", ["hostname"])
    assert r.rc == 1 and "not inside a job" in r.err, r
    r = q(c, "mpiexec.slurm", ["-x", "hostname"])
    assert r.rc == 1 and "invalid option -x" in r.err, r
