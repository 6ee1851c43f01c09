"""JobCompType: every ended job recorded by jobcomp/filetxt (a line in
JobCompLoc, Slurm's format) or jobcomp/script (JobCompLoc run with the
job in its environment)."""

import os
import re
import time


FIELDS = ["JobId", "UserId", "GroupId", "Name", "JobState", "Partition",
          "TimeLimit", "StartTime", "EndTime", "NodeList", "NodeCnt",
          "ProcCnt", "WorkDir", "ReservationName", "Tres", "Account", "QOS",
          "WcKey", "Cluster", "SubmitTime", "EligibleTime"]
ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"


def wait_for(pred, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.2)
    return pred()


def lines_of(path):
    if not os.path.exists(path):
        return {}
    out = {}
    for line in open(path):
        jid = line.split()[0].split("=")[1]
        out[jid] = line
    return out


def test_filetxt_records_each_end(new_cluster):
    c = new_cluster(extra_conf="")
    loc = os.path.join(c.dir, "log", "jobcomp.txt")
    # JobCompLoc inside the cluster's dir: restart the controller with it.
    c.extra_conf = "JobCompType=jobcomp/filetxt\nJobCompLoc=%s" % loc
    c.write_conf()
    c.kill_ctld()
    c.start_ctld()
    c.wait_ready()
    ok = c.sbatch(["-J", "ok", "-t", "5", "--wrap", "true"], user="sluice_u1")
    bad = c.sbatch(["-J", "bad", "--wrap", "exit 3"], user="sluice_u1")
    held = c.sbatch(["-J", "held", "--hold", "--wrap", "true"], user="sluice_u1")
    assert c.wait_done(ok, 30) == "COMPLETED"
    assert c.wait_done(bad, 30) == "FAILED"
    assert c.run(["scancel", str(held)]).rc == 0
    got = wait_for(lambda: len(lines_of(loc)) >= 3 and lines_of(loc))
    assert set(got) == {str(ok), str(bad), str(held)}, got
    uid = c.run(["id", "-u"], user="sluice_u1").out.strip()
    for jid, line in got.items():
        assert line.endswith(" \n"), repr(line)
        keys = [f.split("=", 1)[0] for f in line.split()]
        assert keys[:len(FIELDS)] == FIELDS, keys
        assert keys[-2:] == ["DerivedExitCode", "ExitCode"], keys
        assert "UserId=sluice_u1(%s) " % uid in line
        assert "Cluster=%s " % c.name in line
        assert re.search("SubmitTime=%s " % ISO, line), line
    assert "JobState=COMPLETED " in got[str(ok)]
    assert "TimeLimit=5 " in got[str(ok)]
    assert re.search(r"NodeList=n\d NodeCnt=1 ProcCnt=1 ", got[str(ok)])
    assert "ExitCode=0:0 " in got[str(ok)]
    assert "JobState=FAILED " in got[str(bad)]
    assert "ExitCode=3:0 " in got[str(bad)]
    assert "TimeLimit=UNLIMITED " in got[str(bad)]
    assert "JobState=CANCELLED " in got[str(held)]
    assert "NodeList=(null) NodeCnt=0 ProcCnt=0 " in got[str(held)]


def test_script_gets_job_environment(new_cluster):
    c = new_cluster()
    out = os.path.join(c.dir, "log", "jobcomp-env")
    os.makedirs(out)
    script = os.path.join(c.dir, "etc", "jobcomp.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\nenv > %s/$JOBID.tmp && mv %s/$JOBID.tmp %s/$JOBID\n"
                % (out, out, out))
    os.chmod(script, 0o755)
    c.extra_conf = "JobCompType=jobcomp/script\nJobCompLoc=%s" % script
    c.write_conf()
    c.kill_ctld()
    c.start_ctld()
    c.wait_ready()
    jid = c.sbatch(["-J", "scripted", "-t", "3", "--wrap", "exit 2"],
                   user="sluice_u2")
    assert c.wait_done(jid, 30) == "FAILED"
    path = os.path.join(out, str(jid))
    assert wait_for(lambda: os.path.exists(path)), os.listdir(out)
    env = dict(l.split("=", 1) for l in open(path).read().splitlines() if "=" in l)
    assert env["JOBID"] == str(jid)
    assert env["JOBNAME"] == "scripted"
    assert env["JOBSTATE"] == "FAILED"
    assert env["EXITCODE"] == "2:0"
    assert env["USERNAME"] == "sluice_u2"
    assert env["LIMIT"] == "00:03:00"
    assert env["PARTITION"] == "debug"
    assert env["BATCH"] == "yes"
    assert env["ARRAYJOBID"] == "0"
    assert env["NODECNT"] == "1"
    assert int(env["END"]) >= int(env["START"]) >= int(env["SUBMIT"])
    assert env["PWD"] == "/tmp"


def test_bad_jobcomp_loc_stops_controller(new_cluster):
    c = new_cluster()
    c.extra_conf = "JobCompType=jobcomp/script\nJobCompLoc=/nonexistent/script"
    c.write_conf()
    c.kill_ctld()
    import subprocess
    r = subprocess.run([c.bin("slurmctld"), "-D"], env=c.env_for(),
                       capture_output=True, text=True, timeout=30)
    assert r.returncode != 0
    assert "JobCompLoc /nonexistent/script is not an executable" in \
        r.stderr + c.log_text(), r.stderr
