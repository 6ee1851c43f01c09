"""--mail-type/--mail-user: the controller runs MailProg as
`mail -s <subject> <user>` on the events the job asked for, with Slurm's
subject lines ("Slurm Job_id=12 Name=x Began, Queued time 00:00:00")."""

import os
import shutil
import tempfile
import time

U1 = "sluice_u1"


def test_mail_events(new_cluster):
    d = tempfile.mkdtemp(prefix="sluice-mail-")
    os.chmod(d, 0o755)
    log = os.path.join(d, "mail.log")
    prog = os.path.join(d, "mailprog")
    with open(prog, "w") as f:
        f.write('#!/bin/sh\necho "$0|$1|$2|$3|$SLURM_JOB_ID|'
                '$SLURM_JOB_MAIL_TYPE" >> %s\n' % log)
    os.chmod(prog, 0o755)
    try:
        c = new_cluster(nodes=1, extra_conf="MailProg=%s" % prog)
        ok = c.sbatch(["-J", "mailok", "--mail-type=ALL",
                       "--mail-user=someone@example.org", "--wrap", "true"],
                      user=U1)
        bad = c.sbatch(["-J", "mailbad", "--mail-type=FAIL", "--wrap", "exit 3"],
                       user=U1)
        quiet = c.sbatch(["-J", "quiet", "--mail-type=END", "--begin=now+60",
                          "--wrap", "true"], user=U1)
        c.wait_done(ok, 30)
        c.wait_done(bad, 30)
        deadline = time.time() + 15
        lines = []
        while time.time() < deadline:
            lines = open(log).read().splitlines() if os.path.exists(log) else []
            if len(lines) >= 3:
                break
            time.sleep(0.3)
        time.sleep(1)
        lines = open(log).read().splitlines()
        mine = [l.split("|") for l in lines if l.split("|")[4] == str(ok)]
        assert [m[5] for m in mine] == ["Began", "Ended"], lines
        began, ended = mine
        assert began[1] == "-s" and began[3] == "someone@example.org"
        assert began[2].startswith("Slurm Job_id=%d Name=mailok Began, Queued time "
                                   % ok), began
        assert ended[2].startswith("Slurm Job_id=%d Name=mailok Ended, Run time "
                                   % ok), ended
        assert ended[2].endswith(", COMPLETED, ExitCode 0"), ended
        failed = [l.split("|") for l in lines if l.split("|")[4] == str(bad)]
        assert len(failed) == 1, lines
        assert failed[0][3] == U1
        assert failed[0][2].startswith("Slurm Job_id=%d Name=mailbad Failed, "
                                       "Run time " % bad), failed
        assert failed[0][2].endswith(", FAILED, ExitCode 3"), failed
        assert not [l for l in lines if l.split("|")[4] == str(quiet)]
        c.run(["scancel", str(quiet)], user=U1)

        # INVALID_DEPEND; arrays mail as a whole unless ARRAY_TASKS
        inv = c.sbatch(["-J", "inv", "--mail-type=INVALID_DEPEND", "-d",
                        "afterok:%d" % bad, "--wrap", "true"], user=U1)
        arr = c.sbatch(["-J", "arr", "--mail-type=BEGIN,END", "--array=1-2",
                        "--wrap", "exit $SLURM_ARRAY_TASK_ID"], user=U1)
        per = c.sbatch(["-J", "per", "--mail-type=END,ARRAY_TASKS",
                        "--array=1-2", "--wrap", "true"], user=U1)

        def subjects(name):
            if not os.path.exists(log):
                return []
            return [l.split("|")[2] for l in open(log).read().splitlines()
                    if " Name=%s " % name in l.split("|")[2]]

        deadline = time.time() + 30
        while time.time() < deadline and (
                len(subjects("inv")) < 1 or len(subjects("arr")) < 2 or
                len(subjects("per")) < 2):
            time.sleep(0.3)
        time.sleep(1)
        assert subjects("inv") == ["Slurm Job_id=%d Name=inv Invalid "
                                   "dependency" % inv], open(log).read()
        assert subjects("arr") == [
            "Slurm Array Summary Job_id=%d_* (%d) Name=arr Began" % (arr, arr),
            "Slurm Array Summary Job_id=%d_* (%d) Name=arr Failed, FAILED, "
            "ExitCode [1-2]" % (arr, arr)], open(log).read()
        per_s = subjects("per")
        assert len(per_s) == 2 and all(
            x.startswith("Slurm Array Task Job_id=%d_" % per) and
            ", COMPLETED, ExitCode 0" in x for x in per_s), per_s
        c.run(["scancel", str(inv)], user=U1)
    finally:
        shutil.rmtree(d, ignore_errors=True)
