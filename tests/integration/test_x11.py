"""srun/salloc --x11 with PrologFlags=X11: X clients in the step draw on
the submitting user's display.

An Xvfb (Debian's xvfb) on a display of this host stands for the user's
X server, with a cookie in the user's xauth file.  `srun --x11 xdpyinfo`
runs on a node whose DISPLAY is a forwarded one (localhost:N, N >= 10)
and prints the Xvfb screen; `xauth list` in the step shows the cookie.
Without DISPLAY srun fails with Slurm's message and no job is made; a
cluster without PrologFlags=X11 refuses the job.
"""

import os
import pwd
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cluster as cl  # noqa: E402
import conftest  # noqa: E402

XVFB = shutil.which("Xvfb")
XDPYINFO = shutil.which("xdpyinfo")
XAUTH = shutil.which("xauth")

pytestmark = pytest.mark.skipif(
    not XVFB or not XDPYINFO or not XAUTH,
    reason="xvfb, x11-utils and xauth (Debian packages) are needed")

USER = cl.TEST_USERS[0]


def _free_display():
    for n in range(73, 200):
        if not os.path.exists("/tmp/.X11-unix/X%d" % n) and \
                not os.path.exists("/tmp/.X%d-lock" % n):
            return n
    raise RuntimeError("no free X display")


@pytest.fixture(scope="module")
def x11(users):
    c = cl.Cluster(tag="x11", nodes=2, cpus=2,
                   extra_conf="PrologFlags=X11\n")
    conftest._ACTIVE.append(c)
    xvfb = None
    try:
        c.start()
        pw = pwd.getpwnam(USER)
        c.disp = _free_display()
        c.cookie = os.urandom(16).hex()
        c.xauth = os.path.join(c.workdir(USER), "Xauthority-test")
        subprocess.run([XAUTH, "-f", c.xauth, "add", ":%d" % c.disp, ".",
                        c.cookie], check=True)
        os.chown(c.xauth, pw.pw_uid, pw.pw_gid)
        xvfb = subprocess.Popen(
            [XVFB, ":%d" % c.disp, "-auth", c.xauth, "-screen", "0",
             "640x480x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        c.xenv = {"DISPLAY": ":%d" % c.disp, "XAUTHORITY": c.xauth}
        # its socket file comes before it answers: until xdpyinfo works
        cl.wait_for(lambda: subprocess.run(
            [XDPYINFO], env=dict(os.environ, **c.xenv),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        ).returncode == 0, timeout=20, what="Xvfb answering")
    except BaseException:
        if xvfb:
            xvfb.kill()
        conftest._stop(c, keep=True)
        raise
    yield c
    xvfb.terminate()
    xvfb.wait(timeout=10)
    conftest._stop(c)


def test_srun_x11_draws_on_the_display(x11):
    r = x11.run(["srun", "--x11", "sh", "-c",
                 "echo D=$DISPLAY; xdpyinfo | grep -E "
                 "'^name of display|dimensions'"],
                user=USER, env=x11.xenv, timeout=60)
    assert r.rc == 0, r
    disp = [l for l in r.out.splitlines() if l.startswith("D=")]
    assert len(disp) == 1 and disp[0].startswith("D=localhost:"), r
    num = int(disp[0].split(":")[1].split(".")[0])
    assert num >= 10, r
    assert "640x480 pixels" in r.out, r
    assert "name of display:    localhost:%d.0" % num in r.out, r


def test_every_node_draws_at_once(x11):
    """--x11 (all): each node's tasks reach the display at the same time
    through the one srun (xdpyinfo -ext all: a few hundred KB each)."""
    r = x11.run(["srun", "-N2", "-n4", "--x11", "sh", "-c",
                 "xdpyinfo -ext all | wc -c; xdpyinfo | grep dimensions"],
                user=USER, env=x11.xenv, timeout=60)
    assert r.rc == 0, r
    assert r.out.count("640x480 pixels") == 4, r
    sizes = [int(l) for l in r.out.split("\n") if l.strip().isdigit()]
    assert len(sizes) == 4 and min(sizes) > 10000, r


def test_step_has_the_users_cookie(x11):
    r = x11.run(["srun", "--x11", "sh", "-c",
                 "xauth -f \"$XAUTHORITY\" list; ls -l \"$XAUTHORITY\""],
                user=USER, env=x11.xenv, timeout=60)
    assert r.rc == 0, r
    assert x11.cookie in r.out, r
    assert "MIT-MAGIC-COOKIE-1" in r.out, r
    assert USER in r.out, r
    # the private xauth file (under TmpFS) is gone with the step
    path = r.out.split()[-1]
    assert path.startswith("/tmp/.Xauthority-"), r
    assert not os.path.exists(path), r


def test_x11_first_forwards_only_the_first_node(x11):
    r = x11.run(["srun", "-N2", "--x11=first", "sh", "-c",
                 "echo $SLURMD_NODENAME=${DISPLAY:-none}"],
                user=USER, env=x11.xenv, timeout=60)
    assert r.rc == 0, r
    got = dict(l.split("=", 1) for l in r.out.split())
    assert got["n1"].startswith("localhost:"), r
    # the others keep what srun's environment had, as any variable
    assert got["n2"] == ":%d" % x11.disp, r


def test_salloc_x11_steps_draw(x11):
    r = x11.run(["salloc", "-N1", "--x11", x11.bin("srun"), "sh", "-c",
                 "xdpyinfo | grep dimensions"],
                user=USER, env=x11.xenv, timeout=60)
    assert r.rc == 0, r
    assert "640x480 pixels" in r.out, r


def test_no_display_is_refused(x11):
    before = sorted(x11.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out.split())
    r = x11.run(["srun", "--x11", "true"], user=USER, timeout=30)
    assert r.rc != 0, r
    assert "srun: error: No DISPLAY variable set, cannot setup x11 " \
        "forwarding." in r.err, r
    r = x11.run(["salloc", "--x11", "true"], user=USER, timeout=30)
    assert r.rc != 0, r
    assert "salloc: error: No DISPLAY variable set" in r.err, r
    after = sorted(x11.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out.split())
    assert before == after


def test_bad_x11_word_is_refused(x11):
    r = x11.run(["srun", "--x11=sideways", "true"], user=USER,
                env=x11.xenv, timeout=30)
    assert r.rc != 0 and "Invalid --x11 specification" in r.err, r


def _with_conf(c, old, new):
    conf = os.path.join(c.dir, "etc", "slurm.conf")
    with open(conf) as f:
        text = f.read()
    assert old in text
    with open(conf, "w") as f:
        f.write(text.replace(old, new))
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r
    return conf, text


def _restore(c, conf, text):
    with open(conf, "w") as f:
        f.write(text)
    c.run(["scontrol", "reconfigure"])


def test_home_xauthority(x11):
    """X11Parameters=home_xauthority: the cookie goes to ~/.Xauthority
    (and is taken back when the step ends)."""
    home = pwd.getpwnam(USER).pw_dir
    conf, text = _with_conf(x11, "PrologFlags=X11\n",
                            "PrologFlags=X11\nX11Parameters=home_xauthority\n")
    try:
        r = x11.run(["srun", "--x11", "sh", "-c", "echo XA=$XAUTHORITY; "
                     "xdpyinfo | grep dimensions"],
                    user=USER, env=x11.xenv, timeout=60)
        assert r.rc == 0, r
        assert "XA=%s/.Xauthority" % home in r.out, r
        assert "640x480 pixels" in r.out, r
    finally:
        _restore(x11, conf, text)


def test_no_cookie_is_refused(x11):
    r = x11.run(["srun", "--x11", "true"], user=USER, timeout=30,
                env={"DISPLAY": ":%d" % x11.disp,
                     "XAUTHORITY": os.path.join(x11.workdir(USER),
                                                "no-such-xauthority")})
    assert r.rc != 0, r
    assert "srun: error: Problem retrieving X11 cookie" in r.err, r


def test_without_prolog_flags_x11_refused(x11):
    conf, text = _with_conf(x11, "PrologFlags=X11\n", "")
    try:
        r = x11.run(["srun", "--x11", "true"], user=USER, env=x11.xenv,
                    timeout=30)
        assert r.rc != 0, r
        assert "X11 forwarding not available" in r.err, r
    finally:
        _restore(x11, conf, text)
