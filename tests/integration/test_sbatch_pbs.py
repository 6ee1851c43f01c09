"""#PBS and #BSUB directives read by sbatch, as Slurm's sbatch reads them.

Checked against Slurm 22.05 (the oracle): a script with only #PBS lines
("-N viapbs", "-l nodes=2:ppn=1,walltime=00:05:00", "-o p2.out", "-j oe")
runs as job "viapbs" on 2 nodes with 2 tasks, TimeLimit=00:05:00, both
streams to p2.out.  The directives go over the script's #SBATCH lines,
under the command line; --ignore-pbs (or SBATCH_IGNORE_PBS) skips them.
"""

import os

U = "sluice_u1"

PBS_SCRIPT = """#!/bin/bash
#PBS -N viapbs
#PBS -l nodes=2:ppn=1,walltime=00:05:00
#PBS -o p2.out
#PBS -j oe
#PBS -m ae -M someone@example.com
echo hello
"""


def _submit(c, name, text, args=(), env=None):
    wd = c.workdir(U)
    c.write_file(U, os.path.join(wd, name), text, 0o755)
    return c.sbatch(["-H"] + list(args) + [name], user=U, cwd=wd, env=env)


def _job(c, jid):
    rec = c.show_job(jid)
    c.run(["scancel", str(jid)])
    return rec


def test_pbs_directives(cluster):
    c = cluster
    rec = _job(c, _submit(c, "p2.sh", PBS_SCRIPT))
    wd = c.workdir(U)
    assert rec["JobName"] == "viapbs", rec
    assert rec["NumNodes"].split("-")[0] == "2", rec
    assert rec["NumTasks"] == "2", rec
    assert rec["TimeLimit"] == "00:05:00", rec
    assert rec["StdOut"] == os.path.join(wd, "p2.out"), rec
    assert rec["StdErr"] == os.path.join(wd, "p2.out"), rec
    assert rec["MailType"] == "END,FAIL", rec
    assert rec["MailUser"] == "someone@example.com", rec


def test_pbs_over_sbatch_under_command_line(cluster):
    c = cluster
    text = ("#!/bin/sh\n#SBATCH -J fromsbatch -t 10\n"
            "#PBS -N frompbs\n#PBS -q debug\ntrue\n")
    rec = _job(c, _submit(c, "order.sh", text))
    assert rec["JobName"] == "frompbs", rec         # over #SBATCH
    assert rec["TimeLimit"] == "00:10:00", rec      # #SBATCH kept
    assert rec["Partition"] == "debug", rec
    rec = _job(c, _submit(c, "order.sh", text, ["-J", "fromargv"]))
    assert rec["JobName"] == "fromargv", rec        # the command line wins


def test_ignore_pbs(cluster):
    c = cluster
    rec = _job(c, _submit(c, "ign.sh", PBS_SCRIPT, ["--ignore-pbs"]))
    assert rec["JobName"] == "ign.sh", rec
    rec = _job(c, _submit(c, "ign.sh", PBS_SCRIPT,
                          env={"SBATCH_IGNORE_PBS": "1"}))
    assert rec["JobName"] == "ign.sh", rec


def test_pbs_pro_select_and_array(cluster):
    c = cluster
    text = ("#!/bin/sh\n#PBS -l select=2:ncpus=2:mpiprocs=1\n"
            "#PBS -J 1-3\n#PBS -W depend=afterany:1\ntrue\n")
    jid = _submit(c, "pro.sh", text)
    rec = c.show_job(jid)
    c.run(["scancel", str(jid)])
    assert rec["ArrayTaskId"] == "1-3", rec
    assert rec["NumNodes"].split("-")[0] == "2", rec
    assert rec["CPUs/Task"] == "2", rec
    assert rec["Dependency"].startswith("afterany:1"), rec


def test_bsub_directives(cluster):
    c = cluster
    text = ("#!/bin/sh\n#BSUB -J bjob\n#BSUB -n 1,2\n#BSUB -W 7\n"
            "#BSUB -o b.out\ntrue\n")
    rec = _job(c, _submit(c, "b.sh", text))
    assert rec["JobName"] == "bjob", rec
    assert rec["NumTasks"] == "2", rec
    assert rec["TimeLimit"] == "00:07:00", rec
    assert rec["StdOut"].endswith("/b.out"), rec


def test_bad_pbs_directive(cluster):
    c = cluster
    wd = c.workdir(U)
    c.write_file(U, os.path.join(wd, "bad.sh"),
                 "#!/bin/sh\n#PBS -Y\ntrue\n", 0o755)
    r = c.run(["sbatch", "-H", "bad.sh"], user=U, cwd=wd)
    assert r.rc != 0
    assert "sbatch: error: Unrecognized command line parameter Y" in r.err
    assert "Submitted" not in r.out
