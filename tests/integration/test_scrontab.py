"""scrontab: users' crontabs run as batch jobs that requeue themselves.

A crontab with #SCRON options, comments and variables is installed,
listed back verbatim and removed; its entries are pending jobs with
CronJob=Yes, their CrontabSpec and reason BeginTime.  A bad time spec is
refused with its line number and the old crontab stays, as it does when
the controller refuses an entry's options; -u is for operators only;
with ScronParameters=explicit_scancel a plain scancel is refused and
scancel --cron disables the entry ("#DISABLED: " in the listing);
without ScronParameters=enable scrontab says the cluster has it off.
An entry "* * * * *" runs in two consecutive minutes with the controller
killed (SIGKILL) and restarted between the runs: this waits for the real
clock (about two minutes), no test-only time scaling.
"""

import os
import pwd
import re
import signal
import subprocess
import time

import pytest

U1 = "sluice_u1"
U2 = "sluice_u2"
SCRON = "ScronParameters=enable,explicit_scancel\n"


@pytest.fixture(scope="module")
def c(users):
    import conftest
    cl = conftest._start(tag="scrontab", nodes=2, extra_conf=SCRON)
    yield cl
    conftest._stop(cl)


def scrontab(c, *args, user=U1, input=None):
    return c.run(["scrontab"] + list(args), user=user, input=input)


def install(c, text, user=U1):
    """scrontab FILE as user; the Result."""
    path = os.path.join(c.workdir(user), "crontab.%d" % time.time_ns())
    c.write_file(user, path, text)
    return scrontab(c, path, user=user)


def cron_jobs(c, user=U1):
    """{job id: (state, reason)} of user's jobs that are not finished."""
    r = c.run(["squeue", "-h", "-u", user, "-o", "%i %T %r"])
    assert r.rc == 0, r
    out = {}
    for line in r.out.splitlines():
        jid, st, reason = line.split(None, 2)
        out[int(jid)] = (st, reason)
    return out


def test_disabled_without_enable(c):
    conf = os.path.join(c.dir, "etc", "noscron.conf")
    with open(c.conf) as f:
        text = f.read().replace(SCRON, "")
    with open(conf, "w") as f:
        f.write(text)
    r = c.run(["scrontab", "-l"], user=U1, conf=conf)
    assert r.rc == 1
    assert r.err.strip() == \
        "scrontab: fatal: scrontab is disabled on this cluster"


def test_install_list_remove(c):
    wd = c.workdir(U1)
    text = ("# my crontab\n"
            "OUT=%s\n"
            "\n"
            "#SCRON --job-name=every5 -t 2\n"
            "#SCRON --chdir=%s\n"
            "*/5 * * * * echo five >> $OUT/five.log\n"
            "@daily   echo daily\n" % (wd, wd))
    r = install(c, text)
    assert r.rc == 0 and r.out == "" and r.err == "", r
    r = scrontab(c, "-l")
    assert r.rc == 0 and r.out == text, r
    jobs = cron_jobs(c)
    assert len(jobs) == 2
    assert all(v == ("PENDING", "BeginTime") for v in jobs.values()), jobs
    first, second = sorted(jobs)
    show = c.run(["scontrol", "show", "job", str(first)]).out
    assert re.search(r'(?m)^   CronJob=Yes CrontabSpec="\*/5 \* \* \* \*"$',
                     show), show
    rec = c.show_job(first)
    assert rec["JobName"] == "every5" and rec["TimeLimit"] == "00:02:00"
    assert rec["WorkDir"] == wd
    # the next multiple of 5 minutes
    begin = time.mktime(time.strptime(rec["EligibleTime"], "%Y-%m-%dT%H:%M:%S"))
    assert begin % 300 == 0 and 0 < begin - time.time() <= 300
    # a cron job changes with its crontab only
    r = c.run(["scontrol", "update", "jobid=%d" % first, "TimeLimit=5"],
              user=U1)
    assert r.rc == 1 and "Cannot modify scrontab jobs through scontrol" \
        in r.err, r
    rec2 = c.show_job(second)
    assert rec2["JobName"] == "echo"
    assert rec2["WorkDir"] == pwd.getpwnam(U1).pw_dir
    assert 'CrontabSpec="@daily"' in c.run(
        ["scontrol", "show", "job", str(second)]).out
    # -r: the jobs are cancelled, nothing to list
    r = scrontab(c, "-r")
    assert r.rc == 0, r
    assert cron_jobs(c) == {}
    assert c.job_state(first) == "CANCELLED"
    r = scrontab(c, "-l")
    assert r.rc == 1 and r.out == "no crontab for %s\n" % U1, r


def test_bad_line_keeps_old_crontab(c):
    good = "0 3 * * * echo good\n"
    assert install(c, good).rc == 0
    before = cron_jobs(c)
    assert len(before) == 1
    bad = ("# fine\n"
           "0 4 * * * echo fine\n"
           "61 * * * * echo bad minute\n"
           "0 5 * * * echo never reached\n")
    r = install(c, bad)
    assert r.rc == 1, r
    assert r.out == "There are errors in your crontab.\n"
    assert 'scrontab: error: line 3: invalid minute field "61"' in r.err, r
    assert scrontab(c, "-l").out == good
    assert cron_jobs(c) == before
    # a line with only four fields, and a day name that is not one
    for text, n in (("0 4 * * echo\n", 1), ("\n\n0 4 * * sunday x\n", 3)):
        r = install(c, text)
        assert r.rc == 1 and ("line %d:" % n) in r.err, r
    # refused by the controller (its partition): lines of the entry
    r = install(c, "0 1 * * * echo one\n"
                   "#SCRON -p nosuchpart\n"
                   "0 2 * * * echo two\n")
    assert r.rc == 1, r
    assert r.out.startswith(
        "There was an issue with the job submission on lines 2-3\n"
        "The error code return was: Invalid partition name specified\n"), r
    assert scrontab(c, "-l").out == good
    assert cron_jobs(c) == before
    # an sbatch option a crontab entry cannot have
    r = install(c, "#SCRON --array=1-3\n0 2 * * * echo arr\n")
    assert r.rc == 1 and "--array cannot be used" in r.err, r
    assert scrontab(c, "-r").rc == 0


def test_u_is_for_operators(c):
    assert install(c, "0 6 * * * echo mine\n", user=U2).rc == 0
    # a user may not read or replace another's
    r = scrontab(c, "-u", U2, "-l", user=U1)
    assert r.rc == 1
    assert "slurm_request_crontab failed: Access/permission denied" in r.err
    path = os.path.join(c.workdir(U1), "forother")
    c.write_file(U1, path, "0 7 * * * echo theirs\n")
    r = scrontab(c, "-u", U2, path, user=U1)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    r = scrontab(c, "-u", U2, "-r", user=U1)
    assert r.rc == 1 and "Access/permission denied" in r.err, r
    assert scrontab(c, "-l", user=U2).out == "0 6 * * * echo mine\n"
    # root may: the jobs are the user's
    r = scrontab(c, "-u", U2, "-l", user=None)
    assert r.rc == 0 and r.out == "0 6 * * * echo mine\n"
    rootfile = os.path.join(c.workdir(None), "forU2")
    c.write_file(None, rootfile, "0 8 * * * echo by root\n")
    r = scrontab(c, "-u", U2, rootfile, user=None)
    assert r.rc == 0, r
    jobs = cron_jobs(c, U2)
    assert len(jobs) == 1
    assert c.show_job(list(jobs)[0])["UserId"].startswith(U2 + "(")
    r = scrontab(c, "-u", "nosuchuser", "-l", user=None)
    assert r.rc == 1 and "Could not find user nosuchuser" in r.err
    assert scrontab(c, "-u", U2, "-r", user=None).rc == 0
    assert cron_jobs(c, U2) == {}


def test_scancel_needs_cron(c):
    text = ("0 9 * * * echo keep\n"
            "#SCRON -t 1\n"
            "0 10 * * * echo cancel me\n")
    assert install(c, text).rc == 0
    jobs = sorted(cron_jobs(c))
    assert len(jobs) == 2
    r = c.run(["scancel", str(jobs[1])], user=U1)
    assert r.rc == 2098 & 0xff    # as Slurm's: the error's low byte
    assert ("scancel: error: Kill job error on job id %d: Cannot cancel "
            "scrontab jobs without --cron flag." % jobs[1]) in r.err, r
    assert c.job_state(jobs[1]) == "PENDING"
    r = c.run(["scancel", "--cron", str(jobs[1])], user=U1)
    assert r.rc == 0, r
    assert c.wait_state(jobs[1], "CANCELLED", 20)
    assert scrontab(c, "-l").out == ("0 9 * * * echo keep\n"
                                     "#DISABLED: #SCRON -t 1\n"
                                     "#DISABLED: 0 10 * * * echo cancel me\n")
    assert c.job_state(jobs[0]) == "PENDING"
    assert scrontab(c, "-r").rc == 0


def test_edit_retries_bad_lines(c):
    """-e: the editor runs on a temp copy; a bad line is marked #BAD: and
    the user asked to retry; the second edit installs."""
    d = c.mkdir_for(U1, os.path.join(c.workdir(U1), "edit"))
    good = "0 11 * * * echo edited\n"
    c.write_file(U1, os.path.join(d, "edit.1"), "0 11 * * * echo a\n"
                 "99 * * * * echo bad\n")
    c.write_file(U1, os.path.join(d, "edit.2"), good)
    editor = c.write_file(U1, os.path.join(d, "ed"),
                          "#!/bin/sh\n"
                          "n=$(cat %s/count 2>/dev/null || echo 0)\n"
                          "n=$((n + 1)); echo $n > %s/count\n"
                          "cp \"$1\" %s/seen.$n\n"
                          "cp %s/edit.$n \"$1\"\n" % (d, d, d, d), 0o755)
    pw = pwd.getpwnam(U1)
    master, slave = os.openpty()
    p = subprocess.Popen(["scrontab", "-e"], executable=c.bin("scrontab"),
                         stdin=slave, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         cwd=c.workdir(U1),
                         env=c.env_for(U1, extra={"EDITOR": editor,
                                                  "VISUAL": ""}),
                         user=pw.pw_uid, group=pw.pw_gid)
    os.close(slave)
    os.write(master, b"y\n")
    out, err = p.communicate(timeout=60)
    os.close(master)
    assert p.returncode == 0, (out, err)
    assert out == ("There are errors in your crontab.\n"
                   "The failed line(s) is commented out with #BAD:\n"
                   "Do you want to retry the edit? (y/n) "), (out, err)
    assert "line 2:" in err
    with open(os.path.join(d, "seen.1")) as f:
        assert f.read().startswith("# Welcome to scrontab")
    with open(os.path.join(d, "seen.2")) as f:
        assert f.read() == "0 11 * * * echo a\n#BAD: 99 * * * * echo bad\n"
    assert scrontab(c, "-l").out == good
    assert len(cron_jobs(c)) == 1
    # not a terminal: refused
    r = scrontab(c, "-e", input="")
    assert r.rc == 1 and "Standard input is not a TTY" in r.err, r
    assert scrontab(c, "-r").rc == 0


def _runs(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [int(x) for x in f.read().split()]


def test_runs_each_minute_across_a_restart(new_cluster):
    c = new_cluster(nodes=1, extra_conf=SCRON)
    wd = c.workdir(U1)
    log = os.path.join(wd, "minute.log")
    r = install(c, "#SCRON --chdir=%s -o %s/out-%%j.txt\n"
                   "* * * * * date +%%s >> %s\n" % (wd, wd, log))
    assert r.rc == 0, r
    (jid,) = cron_jobs(c)
    deadline = time.time() + 90
    while time.time() < deadline and not _runs(log):
        time.sleep(0.5)
    first = _runs(log)
    assert len(first) == 1, (first, c.log_tails())
    # pending again for the next minute, the same job
    c.wait_state(jid, "PENDING", 20)
    rec = c.show_job(jid)
    assert rec["Reason"] == "BeginTime" and rec["CronJob"] == "Yes"
    begin = time.mktime(time.strptime(rec["EligibleTime"], "%Y-%m-%dT%H:%M:%S"))
    assert begin == (first[0] // 60 + 1) * 60
    # the controller dies (SIGKILL) and comes back before that minute
    c.kill_ctld(signal.SIGKILL)
    c.start_ctld()
    c.wait_ready(timeout=60)
    assert scrontab(c, "-l").out.endswith("* * * * * date +%%s >> %s\n" % log)
    deadline = time.time() + 100
    while time.time() < deadline and len(_runs(log)) < 2:
        time.sleep(0.5)
    runs = _runs(log)
    assert len(runs) >= 2, (runs, c.log_tails())
    assert runs[1] // 60 == runs[0] // 60 + 1
    assert cron_jobs(c).keys() == {jid}
    assert c.show_job(jid)["CronJob"] == "Yes"
    assert scrontab(c, "-r").rc == 0
