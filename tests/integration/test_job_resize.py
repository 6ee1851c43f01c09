"""Shrinking a running job: scontrol update JobId=N NumNodes=K or
NodeList=<subset>, on three nodes of one CPU (as Slurm 22.05 does, checked
side by side):

- From inside the job, scontrol writes slurm_job_N_resize.sh/.csh in its
  working directory and says so on stdout; sourcing it sets the new
  SLURM_NODELIST, SLURM_NNODES, SLURM_JOB_CPUS_PER_NODE.
- The released node goes back to the pool (another job starts there) and
  the job's processes there end; squeue and scontrol show the new size.
- Growing is refused ("Requested operation not supported on this
  system"), a NodeList that is not a subset holding the batch host is
  refused ("Invalid node name specified"), NumNodes=0 too ("Node count
  specification invalid"); nothing changes.
- A user shrinks their own job by NodeList from outside it: no script.
"""

import os

import pytest

import conftest

from cluster import wait_for  # noqa: E402

U1 = "sluice_u1"


@pytest.fixture(scope="module")
def rc(users):
    c = conftest._start(tag="resize", nodes=3, cpus=1)
    yield c
    conftest._stop(c)


def nodes_of(c, jid):
    return c.run(["squeue", "-h", "-j", str(jid), "-o", "%D %N"]).out.strip()


def test_shrink_from_inside_writes_resize_script(rc):
    c = rc
    d = c.workdir(U1)
    script = "\n".join([
        "#!/bin/sh",
        "%s -N3 sleep 300 &" % c.bin("srun"),
        "sleep 2",
        "%s update JobId=$SLURM_JOB_ID NumNodes=2 > upd.txt 2>&1"
        % c.bin("scontrol"),
        "echo rc=$? >> upd.txt",
        ". ./slurm_job_${SLURM_JOB_ID}_resize.sh",
        "env | grep -E '^SLURM_(NODELIST|NNODES|JOB_NUM_NODES|"
        "JOB_CPUS_PER_NODE|NTASKS|TASKS_PER_NODE)=' | sort > env.txt",
        "sleep 300",
    ])
    path = os.path.join(d, "resize.sh")
    with open(path, "w") as f:
        f.write(script + "\n")
    jid = c.sbatch(["-N3", "-o", "/dev/null", "-D", d, path], user=U1)
    c.wait_state(jid, "RUNNING", 30)
    env = os.path.join(d, "env.txt")
    wait_for(lambda: os.path.exists(env) and open(env).read(), 30,
             what="the job sourced the script")
    upd = open(os.path.join(d, "upd.txt")).read()
    assert upd == ("To reset Slurm environment variables, execute\n"
                   "  For bash or sh shells:  . ./slurm_job_%d_resize.sh\n"
                   "  For csh shells:         source ./slurm_job_%d_resize.csh\n"
                   "rc=0\n" % (jid, jid)), upd
    sh = open(os.path.join(d, "slurm_job_%d_resize.sh" % jid)).read()
    assert sh == ('export SLURM_NODELIST="n[1-2]"\n'
                  'export SLURM_JOB_NODELIST="n[1-2]"\n'
                  'export SLURM_NNODES=2\n'
                  'export SLURM_JOB_NUM_NODES=2\n'
                  'export SLURM_JOB_CPUS_PER_NODE="1(x2)"\n'
                  'unset SLURM_NPROCS\n'
                  'unset SLURM_NTASKS\n'
                  'unset SLURM_TASKS_PER_NODE\n'), sh
    csh = open(os.path.join(d, "slurm_job_%d_resize.csh" % jid)).read()
    assert csh.splitlines()[0] == 'setenv SLURM_NODELIST "n[1-2]"', csh
    assert csh.splitlines()[-1] == "unsetenv SLURM_TASKS_PER_NODE", csh
    assert open(env).read() == ("SLURM_JOB_CPUS_PER_NODE=1(x2)\n"
                                "SLURM_JOB_NUM_NODES=2\n"
                                "SLURM_NNODES=2\n"
                                "SLURM_NODELIST=n[1-2]\n")
    assert nodes_of(c, jid) == "2 n[1-2]"
    rec = c.show_job(jid)
    assert (rec["NumNodes"], rec["NumCPUs"], rec["NodeList"]) == \
        ("2", "2", "n[1-2]"), rec
    assert "node=2" in rec["TRES"], rec
    # the job's processes on n3 are ended, and n3 is free again: another
    # job runs there
    wait_for(lambda: "JobId=%d: terminate" % jid in
             c.log_text("n3"), 10, what="n3 told to end the job")
    assert "JobId=%d: terminate" % jid not in c.log_text("n1")
    other = c.sbatch(["-w", "n3", "--wrap", "true"], user=U1)
    c.wait_state(other, "COMPLETED", 30)
    # bad sizes change nothing
    for arg, err in (("NumNodes=3", "Requested operation not supported "
                      "on this system"),
                     ("NumNodes=0", "Node count specification invalid"),
                     ("NodeList=n[1-3]", "Invalid node name specified"),
                     ("NodeList=n2", "Invalid node name specified")):
        r = c.run(["scontrol", "update", "JobId=%d" % jid, arg], user=U1)
        assert (r.rc, r.out, r.err) == (1, "", "%s for job %d\n" %
                                        (err, jid)), (arg, r)
    assert nodes_of(c, jid) == "2 n[1-2]"
    # from outside the job: shrinks, writes nothing
    r = c.run(["scontrol", "update", "JobId=%d" % jid, "NodeList=n1"],
              user=U1, cwd="/tmp")
    assert (r.rc, r.out, r.err) == (0, "", ""), r
    assert nodes_of(c, jid) == "1 n1"
    assert not os.path.exists("/tmp/slurm_job_%d_resize.sh" % jid)
    c.run(["scancel", str(jid)], user=U1)
    c.wait_state(jid, {"CANCELLED"}, 30)
