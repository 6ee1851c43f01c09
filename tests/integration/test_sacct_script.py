"""AccountingStoreFlags=job_script,job_env,job_comment: slurmdbd keeps a
batch job's script, environment and comment, and `sacct -B` /
`sacct --env-vars` print them as Slurm's sacct does (a block per job:
title, 80 dashes, the text; NONE when nothing was kept).  PrivateData=jobs
in slurmdbd.conf hides another user's script; a flag word Slurm does not
have is refused."""

import os
import re
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402
import openapi  # noqa: E402
from rest_client import Rest  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

U1, U2 = "sluice_u1", "sluice_u2"
DASHES = "-" * 80
SCRIPT = ("#!/bin/sh\n#SBATCH -J scripted\n# caf\u00e9 \u2615 and a tab\there\n"
          "echo \"$MYVAR\"\n")
FLAGS = "AccountingStoreFlags=job_script,job_env,job_comment"


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="sacctscript", nodes=1,
                        dbd_extra="PrivateData=jobs")
    e.c.extra_conf += "\n" + FLAGS
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e
    e.stop()


def wait_recorded(e, jid, user=U1, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        r = e.sacct("-X", "-P", "-n", "-o", "JobIDRaw,State", "-j", str(jid),
                    user=user)
        if r.rc == 0 and "COMPLETED" in r.out:
            return
        time.sleep(0.3)
    raise AssertionError("job %s not recorded as COMPLETED" % jid)


def submit(e, user=U1, args=(), script=SCRIPT):
    c = e.c
    path = os.path.join(c.workdir(user), "job_%d.sh" % time.time_ns())
    c.write_file(user, path, script)
    return c.sbatch(["-o", "/dev/null"] + list(args) + [path], user=user,
                    cwd=c.workdir(user), env={"MYVAR": "hello world"})


def test_script_env_and_comment_are_kept(env):
    e = env
    jid = submit(e, args=["--comment", "my note", "--export=ALL,MYVAR"])
    e.c.wait_done(jid)
    wait_recorded(e, jid)
    r = e.sacct("-B", "-j", str(jid), user=U1)
    assert r.rc == 0, r
    assert r.out == "Batch Script for %s\n%s\n%s\n" % (jid, DASHES, SCRIPT), \
        repr(r.out)
    r = e.sacct("--env-vars", "-j", str(jid), user=U1)
    assert r.rc == 0, r
    lines = r.out.splitlines()
    assert lines[0] == "Environment used for %s (must be batch to display)" \
        % jid, r.out
    assert lines[1] == DASHES
    assert "MYVAR=hello world" in lines, r.out
    r = e.sacct("-X", "-P", "-n", "-o", "Comment", "-j", str(jid), user=U1)
    assert r.out == "my note\n", r


def test_rest_show_batch_script(env):
    """GET /slurmdb/v0.0.43/jobs?show_batch_script: the job's `script`
    member (absent without the flag), valid against the schema; the
    environment has no member in the schema: refused with 400."""
    e = env
    c = e.c
    jid = submit(e)
    c.wait_done(jid)
    wait_recorded(e, jid)
    d = os.path.join(c.dir, "restd-" + U1)
    os.makedirs(d, mode=0o700, exist_ok=True)
    import pwd
    pw = pwd.getpwnam(U1)
    os.chown(d, pw.pw_uid, pw.pw_gid)
    sock = os.path.join(d, "sock")
    if not os.path.exists(sock):
        c.start_restd(U1, ["unix:" + sock])
    rest = Rest(c, sock, U1)
    code, doc, text = rest.req(
        "GET", "/slurmdb/v0.0.43/jobs?step=%s&show_batch_script=true" % jid)
    assert code == 200, text
    (job,) = doc["jobs"]
    assert job["script"] == SCRIPT
    openapi.validate(doc, "v0.0.43_openapi_slurmdbd_jobs_resp",
                     os.path.join(openapi.SPEC_DIR, "v0.0.43.json"))
    code, doc, text = rest.req("GET", "/slurmdb/v0.0.43/jobs?step=%s" % jid)
    assert code == 200 and "script" not in doc["jobs"][0], text
    code, doc, text = rest.req(
        "GET", "/slurmdb/v0.0.43/jobs?step=%s&show_job_environment" % jid)
    assert code == 400 and "show_job_environment" in text, text


def test_array_task_shows_the_arrays_script(env):
    e = env
    arr = submit(e, args=["--array=1-2"])
    for t in (1, 2):
        e.c.wait_done("%s_%d" % (arr, t))
    deadline = time.time() + 60
    while time.time() < deadline:
        r = e.sacct("-B", "-j", "%s_2" % arr, user=U1)
        if SCRIPT in r.out:
            break
        time.sleep(0.3)
    assert r.out == "Batch Script for %s_2\n%s\n%s\n" % (arr, DASHES, SCRIPT), \
        repr(r.out)


def test_other_user_sees_nothing(env):
    e = env
    jid = submit(e)
    e.c.wait_done(jid)
    wait_recorded(e, jid)
    r = e.sacct("-B", "-j", str(jid), user=U2)
    assert r.rc == 0
    assert SCRIPT not in r.out and "echo" not in r.out, r.out
    # root (an administrator) sees it
    r = e.sacct("-B", "-j", str(jid))
    assert SCRIPT in r.out


def test_without_the_flag_nothing_is_kept(env):
    e = env
    c = e.c
    c.extra_conf = c.extra_conf.replace(FLAGS, "")
    c.write_conf()
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    try:
        jid = submit(e, args=["--comment", "unkept"])
        c.wait_done(jid)
        wait_recorded(e, jid)
        r = e.sacct("-B", "--env-vars", "-j", str(jid), user=U1)
        assert r.out == ("Batch Script for %s\n%s\nNONE\n\n"
                         "Environment used for %s (must be batch to "
                         "display)\n%s\nNONE\n\n" % (jid, DASHES, jid,
                                                     DASHES)), repr(r.out)
        # without job_comment the comment is not kept either (as Slurm)
        r = e.sacct("-X", "-P", "-n", "-o", "Comment", "-j", str(jid),
                    user=U1)
        assert r.out == "\n", r
    finally:
        c.extra_conf += "\n" + FLAGS
        c.write_conf()
        c.run(["scontrol", "reconfigure"])


def test_unknown_flag_refused(env):
    c = env.c
    good = c.extra_conf
    c.extra_conf = good.replace(FLAGS, "AccountingStoreFlags=job_scripts")
    c.write_conf()
    try:
        # the commands read slurm.conf too: scontrol itself refuses it
        r = c.run(["scontrol", "reconfigure"])
        assert r.rc != 0
        assert re.search(r'AccountingStoreFlags: unknown value "job_scripts"',
                         r.err + c.log_text()), (r, c.log_text()[-2000:])
        assert c.run(["sinfo", "-h"], env={"SLURM_CONF": os.path.join(
            c.dir, "etc", "slurm.conf")}).rc != 0
    finally:
        c.extra_conf = good
        c.write_conf()
        c.run(["scontrol", "reconfigure"])
