"""scontrol write batch_script and errnumstr, as Slurm's scontrol (checked
against Slurm 22.05: "batch script for job 12 written to slurm-12.sh",
"-" for standard output, "job script retrieval failed: Invalid user id"
for another user's job, "... Invalid job id specified" for none)."""

import os

U1, U2 = "sluice_u1", "sluice_u2"


def test_write_batch_script(cluster):
    c = cluster
    wd = c.workdir(U1)
    jid = c.sbatch(["-H", "--wrap", "echo hi"], user=U1)
    try:
        r = c.run(["scontrol", "write", "batch_script", str(jid)], user=U1,
                  cwd=wd)
        assert r.rc == 0, r.err
        assert r.out == "batch script for job %d written to slurm-%d.sh\n" \
            % (jid, jid)
        text = open(os.path.join(wd, "slurm-%d.sh" % jid)).read()
        assert text.startswith("#!/bin/sh\n") and "echo hi\n" in text, text
        r = c.run(["scontrol", "write", "batch_script", str(jid)], user=U1,
                  cwd=wd)              # the file is there: not overwritten
        assert r.rc == 1 and "exists" in r.err, r
        r = c.run(["scontrol", "write", "batch_script", str(jid), "-"],
                  user=U1)
        assert r.rc == 0 and r.out == text, r
        r = c.run(["scontrol", "write", "batch_script", str(jid), "-"])
        assert r.rc == 0 and r.out == text, r       # root
        r = c.run(["scontrol", "write", "batch_script", str(jid), "-"],
                  user=U2)
        assert r.rc == 1 and r.out == "" and r.err == \
            "job script retrieval failed: Invalid user id\n", r
        r = c.run(["scontrol", "write", "batch_script", "999999", "-"],
                  user=U1)
        assert r.rc == 1 and r.err == \
            "job script retrieval failed: Invalid job id specified\n", r
    finally:
        c.run(["scancel", str(jid)])


def test_errnumstr(cluster):
    r = cluster.run(["scontrol", "errnumstr", "2017"])
    assert r.rc == 0 and r.out == "Invalid job id specified\n", r
    r = cluster.run(["scontrol", "errnumstr", "x"])
    assert r.rc == 1, r
