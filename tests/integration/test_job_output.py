"""A job's output through REST: GET /sluice/v1/job/{id}/output (issue 25,
the web view's output tail).

The controller relays the read to the batch host's slurmd, which reads the
file as the job's user.  Without PrivateData too, only the job's user and
operators (root here) get it: B is refused.  A symlink the user puts in
place of the output file is followed as the user, so one to /etc/shadow
is refused; a FIFO is not opened; /dev/null, a pending job and a node
that does not answer get a clear error; bad queries are 400.
"""

import os
import signal
import threading
import time

import pytest

import cluster as cl
from conftest import _ACTIVE, _stop
from jwt_util import token_of
from rest_client import Rest

A, B = "sluice_u1", "sluice_u2"
MARK = "output-marker-7f3a"


@pytest.fixture(scope="module")
def env(users):
    c = cl.Cluster(tag="joboutput", nodes=2,
                   extra_conf="AuthAltTypes=auth/jwt\n")
    _ACTIVE.append(c)
    key = os.path.join(c.dir, "state", "jwt_hs256.key")
    with open(key, "wb") as f:
        f.write(os.urandom(32))
    os.chmod(key, 0o600)
    try:
        c.start()
        port = cl.free_ports(1)[0]
        tcp = "127.0.0.1:%d" % port
        c.start_restd("nobody", [tcp], args=["-a", "rest_auth/jwt"])
    except BaseException:
        _stop(c, keep=True)
        raise
    rest = {u: Rest(c, tcp=tcp, token=token_of(c, u))
            for u in (A, B, None)}
    yield c, rest
    _stop(c)


def output(rest, jid, **query):
    q = "&".join("%s=%s" % kv for kv in query.items())
    path = "/sluice/v1/job/%s/output%s" % (jid, "?" + q if q else "")
    return rest.req("GET", path)


def errors(doc):
    return " ".join(e.get("description", "") for e in (doc or {}).get("errors", []))


def wait_text(rest, jid, text, **query):
    def ok():
        st, doc, _ = output(rest, jid, **query)
        return st == 200 and text in doc["output"]["text"]
    cl.wait_for(ok, timeout=20, what="%r in job %s's output" % (text, jid))


def test_owner_operator_and_other_user(env):
    c, rest = env
    wd = c.workdir(A)
    script = ("#!/bin/sh\n"
              "echo '%s <script>alert(1)</script>'\n"
              "printf 'caf\\303\\251 \\377 end\\n'\n"
              "echo err-%s >&2\n"
              "sleep 300\n" % (MARK, MARK))
    jid = c.sbatch(["-J", "out_job", "-o", "out-%j.txt", "-e", "err-%j.txt"],
                   user=A, input=script)
    c.wait_state(jid, {"RUNNING"})
    rec = c.show_job(jid)
    wait_text(rest[A], jid, MARK)
    st, doc, raw = output(rest[A], jid)
    assert st == 200, raw
    o = doc["output"]
    assert o["job_id"] == jid and o["stream"] == "stdout"
    assert o["path"] == rec["StdOut"] == os.path.join(wd, "out-%d.txt" % jid)
    assert o["node"] == rec["BatchHost"]
    data = open(o["path"], "rb").read()
    assert o["size"] == len(data) and o["offset"] == 0
    assert o["bytes"] == len(data)
    # text as text: markup is a string; bad UTF-8 is U+FFFD
    assert "<script>alert(1)</script>" in o["text"]
    assert "caf\u00e9 \ufffd end\n" in o["text"]
    assert doc["errors"] == []
    # the tail, and a range from an offset
    st, doc, raw = output(rest[A], jid, bytes=4)
    assert st == 200, raw
    assert doc["output"]["text"] == "end\n"
    assert doc["output"]["offset"] == len(data) - 4
    st, doc, raw = output(rest[A], jid, offset=0, bytes=len(MARK))
    assert st == 200 and doc["output"]["text"] == MARK, raw
    # stderr is its own file
    st, doc, raw = output(rest[A], jid, stream="stderr")
    assert st == 200, raw
    assert doc["output"]["text"] == "err-%s\n" % MARK
    assert doc["output"]["path"] == rec["StdErr"]
    # B: refused, even without PrivateData; nothing of the output leaks
    for q in ({}, {"stream": "stderr"}):
        st, doc, raw = output(rest[B], jid, **q)
        assert st == 403, raw
        assert "Access/permission denied" in errors(doc), raw
        assert MARK not in raw and "output" not in doc
    # an operator (root) reads it
    st, doc, raw = output(rest[None], jid)
    assert st == 200 and MARK in doc["output"]["text"], raw
    # the job ends: still readable while the controller has it
    c.run(["scancel", str(jid)])
    c.wait_done(jid)
    st, doc, raw = output(rest[A], jid)
    assert st == 200 and MARK in doc["output"]["text"], raw


def test_symlink_to_root_file_refused(env):
    """The job swaps its output file for a symlink to /etc/shadow: the
    read is the user's, so it is refused, and the file's contents never
    appear.  A FIFO in its place is not opened (no hang)."""
    c, rest = env
    wd = c.workdir(A)
    out = os.path.join(wd, "link-out.txt")
    fifo_out = os.path.join(wd, "fifo-out.txt")
    script = ("#!/bin/sh\n"
              "echo started\n"
              "rm -f %s && ln -s /etc/shadow %s\n"
              "rm -f %s && mkfifo %s\n"
              "sleep 300\n" % (out, out, fifo_out, fifo_out))
    jid = c.sbatch(["-o", out, "-e", fifo_out], user=A, input=script)
    c.wait_state(jid, {"RUNNING"})
    cl.wait_for(lambda: os.path.islink(out) and os.path.exists(fifo_out),
                timeout=20, what="the swapped files")
    shadow = open("/etc/shadow").read()
    for who in (A, None):
        st, doc, raw = output(rest[who], jid)
        assert st == 403, raw
        assert "Permission denied" in errors(doc), raw
        assert "root:" not in raw and shadow[:20] not in raw
        t0 = time.time()
        st, doc, raw = output(rest[who], jid, stream="stderr")
        assert st == 404 and "not a regular file" in errors(doc), raw
        assert time.time() - t0 < 5
    c.run(["scancel", str(jid)])
    c.wait_done(jid)


def test_not_available(env):
    c, rest = env
    # /dev/null
    jid = c.sbatch(["-o", "/dev/null", "--wrap", "echo gone; sleep 300"],
                   user=A)
    c.wait_state(jid, {"RUNNING"})
    st, doc, raw = output(rest[A], jid)
    assert st == 404 and "/dev/null" in errors(doc), raw
    c.run(["scancel", str(jid)])
    # pending (held)
    held = c.sbatch(["-H", "--wrap", "true"], user=A)
    st, doc, raw = output(rest[A], held)
    assert st == 400 and "pending" in errors(doc).lower(), raw
    c.run(["scancel", str(held)])
    # no such job, a bad id, bad queries
    st, doc, raw = output(rest[A], 999999)
    assert st == 404, raw
    for jid_s, q, want in (("abc", {}, 404), ("12_3", {}, 404),
                           (jid, {"stream": "stdin"}, 400),
                           (jid, {"bytes": 0}, 400),
                           (jid, {"bytes": 65537}, 400),
                           (jid, {"bytes": "1k"}, 400),
                           (jid, {"offset": -1}, 400),
                           (jid, {"tail": 1}, 400)):
        st, doc, raw = output(rest[A], jid_s, **q)
        assert st == want, (jid_s, q, raw)
        assert doc["errors"], raw


def test_node_gone(env):
    """The batch host's slurmd is gone: a clear error naming the node, and
    the controller keeps answering meanwhile."""
    c, rest = env
    jid = c.sbatch(["-w", "n2", "-o", "gone-%j.txt", "--wrap",
                    "echo %s" % MARK], user=A)
    c.wait_done(jid)
    wait_text(rest[A], jid, MARK)
    # n2's slurmd stops answering: each read waits its timeout, at most
    # a few at once (the rest: try again), and squeue is not held up
    pid = c.slurmds["n2"].pid
    os.kill(pid, signal.SIGSTOP)
    try:
        res = []
        ts = [threading.Thread(target=lambda: res.append(output(rest[A], jid)))
              for _ in range(6)]
        for t in ts:
            t.start()
        time.sleep(0.5)
        t0 = time.time()
        r = c.run(["squeue"], timeout=10)
        assert r.rc == 0 and time.time() - t0 < 3, r
        for t in ts:
            t.join(30)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert len(res) == 6 and all(st == 503 for st, _, _ in res), res
    texts = [errors(doc) for _, doc, _ in res]
    assert any("Too many output reads" in t for t in texts), texts
    assert any("n2" in t and "did not answer" in t for t in texts), texts
    c.kill_slurmd("n2")
    st, doc, raw = output(rest[A], jid)
    assert st in (400, 503), raw
    assert "n2" in errors(doc), raw
    r = c.run(["squeue"], timeout=10)
    assert r.rc == 0, r
    c.start_slurmd("n2")
    c.wait_ready(nodes=["n2"])


def test_operator_yes_coordinator_no(users):
    """With accounting: a coordinator of the job's account is refused
    (output is not the account's), a user with AdminLevel=Operator reads
    it."""
    import mariadb
    if mariadb.missing_tools():
        pytest.skip("MariaDB server not installed")
    import re
    e = mariadb.AcctEnv(tag="joboutacct", nodes=1)
    c = e.c
    key = os.path.join(c.dir, "etc", "jwt_hs256.key")
    c.extra_conf += ("\nAuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=%s\n"
                     "AccountingStorageEnforce=associations\n" % key)
    reload_re = re.compile(r"assoc_mgr: \d+ associations.*generation (\d+)")

    def generation():
        return max([int(m.group(1)) for m in
                    reload_re.finditer(c.log_text())] or [0])

    def change(*args):
        before = generation()
        r = e.sacctmgr("-i", *args)
        assert r.rc == 0, r
        cl.wait_for(lambda: generation() > before, timeout=30,
                    what="the controller's reload")

    try:
        os.makedirs(os.path.dirname(key), exist_ok=True)
        with open(key, "wb") as f:
            f.write(os.urandom(32))
        os.chmod(key, 0o600)
        e.start()
        for args in (("add", "cluster", "sluice"),
                     ("add", "account", "teama"), ("add", "account", "teamb"),
                     ("add", "user", A, "account=teama"),
                     ("add", "user", B, "account=teamb")):
            r = e.sacctmgr("-i", *args)
            assert r.rc == 0, r
        e.start_cluster()
        tcp = "127.0.0.1:%d" % cl.free_ports(1)[0]
        c.start_restd("nobody", [tcp], args=["-a", "rest_auth/jwt"])
        jid = c.sbatch(["-o", "acct-%j.out", "--wrap",
                        "echo %s; sleep 300" % MARK], user=A)
        c.wait_state(jid, {"RUNNING"})
        ra = Rest(c, tcp=tcp, token=token_of(c, A))
        rb = Rest(c, tcp=tcp, token=token_of(c, B))
        wait_text(ra, jid, MARK)
        change("add", "coordinator", "account=teama", "names=" + B)
        # B coordinates teama: may cancel A's job, may not read its output
        st, doc, raw = output(rb, jid)
        assert st == 403 and MARK not in raw, raw
        assert "Access/permission denied" in errors(doc), raw
        change("modify", "user", B, "set", "adminlevel=Operator")
        st, doc, raw = output(rb, jid)
        assert st == 200 and MARK in doc["output"]["text"], raw
        c.run(["scancel", str(jid)])
    finally:
        e.finish()
