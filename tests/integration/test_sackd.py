"""sackd(8), the login-node daemon (and, with auth/slurm, the token service
for the users' commands: the last test): on a host with no slurm.conf and no
slurmd, sackd --conf-server fetches the controller's files
(SlurmctldParameters=enable_configless) into $RUNTIME_DIRECTORY/conf,
where the commands find them (/run/slurm/conf, after SLURM_CONF and the
default slurm.conf); it registers with the controller, and scontrol
reconfigure pushes it the new files (--disable-reconfig: fetched once).

The "login host" is a mount namespace whose /run/slurm is sackd's run
directory (a tmpfs over /run, so the host's /run is untouched) and which
has no slurm.conf at the default path."""

import os
import signal
import subprocess

import pytest

import cluster as cl
import conftest

ENABLE = "SlurmctldParameters=enable_configless"
NOCONF = {"SLURM_CONF": ""}


@pytest.fixture(scope="module")
def login(users):
    c = conftest._start(tag="sackd", nodes=1, extra_conf=ENABLE)
    run_dir = os.path.join(c.dir, "login", "run")
    once_dir = os.path.join(c.dir, "login", "once")
    port, once_port = cl.free_ports(2)

    def start(rd, p, extra=()):
        os.makedirs(rd, exist_ok=True)
        argv = [c.bin("sackd"), "-D", "-v",
                "--conf-server", "127.0.0.1:%d" % c.ctld_port,
                "--authinfo", "socket=%s" % c.munge_socket,
                "--port", str(p)] + list(extra)
        return c._spawn("sackd-" + os.path.basename(rd), argv,
                        env={"RUNTIME_DIRECTORY": rd,
                             "SLURM_CONF": os.path.join(c.dir, "none",
                                                        "slurm.conf")})
    sackd = start(run_dir, port)
    once = start(once_dir, once_port, ["--disable-reconfig"])
    yield c, sackd, run_dir, once_dir
    for d in (sackd, once):
        if d.alive():
            d.popen.send_signal(signal.SIGTERM)
            d.popen.wait(timeout=10)
    conftest._stop(c)


def cached(rd, name="slurm.conf"):
    p = os.path.join(rd, "conf", name)
    if not os.path.exists(p):
        return ""
    with open(p) as f:
        return f.read()


def on_login(c, run_dir, argv, user=None):
    """argv on the login host: /run/slurm is sackd's run directory."""
    wrap = ("mount -t tmpfs none /run && mkdir -p /run/slurm && "
            "mount --bind %s /run/slurm && exec \"$@\"" % run_dir)
    return c.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                  wrap, "sh", c.bin(argv[0])] + argv[1:], env=NOCONF)


def test_sackd_caches_the_config(login):
    c, sackd, run_dir, once_dir = login
    cl.wait_for(lambda: cached(run_dir) and cached(once_dir), timeout=30,
                what="both sackds cached slurm.conf")
    with open(c.conf) as f:
        assert cached(run_dir) == f.read()
    assert sackd.alive()
    log = open(c.ctld_log).read()
    assert "sackd registered from 127.0.0.1" in log
    # --disable-reconfig fetches without registering
    assert log.count("sackd registered from") == 1


def test_commands_use_the_cache(login):
    c, sackd, run_dir, _ = login
    cl.wait_for(lambda: cached(run_dir), timeout=30, what="cache")
    r = on_login(c, run_dir, ["sinfo", "-h", "-o", "%N %t"])
    if r.rc != 0 and "mount" in r.err:
        pytest.skip("no mount namespaces here: %s" % r.err.strip())
    assert r.rc == 0 and r.out.split() == ["n1", "idle"], r
    # the same host without sackd's cache has no configuration
    empty = os.path.join(c.dir, "login", "empty")
    os.makedirs(empty, exist_ok=True)
    r = on_login(c, empty, ["sinfo", "-h"])
    assert r.rc != 0 and "slurm.conf" in r.err, r
    r = on_login(c, run_dir, ["sbatch", "--parsable", "--wrap", "true"])
    assert r.rc == 0, r
    assert c.wait_done(int(r.out.strip())) == "COMPLETED"


def test_reconfigure_reaches_sackd(login):
    c, sackd, run_dir, once_dir = login
    cl.wait_for(lambda: cached(run_dir) and cached(once_dir), timeout=30,
                what="caches")
    with open(c.conf, "a") as f:
        f.write("# marker-sackd-29\n")
    r = c.run(["scontrol", "reconfigure"])
    assert r.rc == 0, r
    cl.wait_for(lambda: "marker-sackd-29" in cached(run_dir), timeout=20,
                what="sackd's cache rewritten by the reconfigure")
    assert "Reconfigure request" in open(sackd.out_path).read()
    r = on_login(c, run_dir, ["sinfo", "-h", "-o", "%N"])
    assert r.rc == 0 and r.out.split() == ["n1"], r
    # the one that did not register keeps what it fetched
    assert "marker-sackd-29" not in cached(once_dir)


def test_bad_options_are_refused(login):
    c = login[0]
    for argv, msg in (
            (["--jwks-file", "/x"], "JWKS key sets are not supported"),
            (["--ca-cert-file", "/x"], "TLS is not supported"),
            (["--port", "0"], "Invalid port number 0"),
            (["-f", c.conf, "--conf-server", "h"], "exclude each other"),
            (["bogus"], "Unknown parameter: bogus")):
        p = subprocess.run([c.bin("sackd"), "-D"] + argv, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=10)
        assert p.returncode == 1 and msg in p.stderr, (argv, p.stderr)


def test_token_service_for_auth_slurm(users):
    """AuthType=auth/slurm: the users' commands on a login host cannot
    read slurm.key; sackd serves them tokens on its socket, as a slurmd
    would.  Without sackd the same command cannot authenticate."""
    c = conftest._start(tag="sackd-slurm", nodes=1, auth="slurm")
    d = None
    try:
        login = os.path.join(c.dir, "login2")
        os.makedirs(login)
        os.chmod(login, 0o755)
        sock = os.path.join(login, "sack.socket")
        key = os.path.join(c.dir, "etc", "slurm.key")
        text = c.conf_text(auth_key=key).replace(
            os.path.join(c.dir, "run", "sack.socket"), sock)
        conf = os.path.join(login, "slurm.conf")
        with open(conf, "w") as f:
            f.write(text)
        os.chmod(conf, 0o644)
        user = cl.TEST_USERS[0]
        r = c.run(["squeue", "-h"], user=user, conf=conf)
        assert r.rc != 0 and sock in r.err, r
        d = c._spawn("sackd-login2", [c.bin("sackd"), "-D", "-f", conf],
                     env={"RUNTIME_DIRECTORY": login})
        cl.wait_for(lambda: os.path.exists(sock), timeout=20,
                    what="sackd's socket")
        assert oct(os.stat(sock).st_mode & 0o777) == "0o666"
        r = c.run(["squeue", "-h"], user=user, conf=conf)
        assert r.rc == 0, r
        r = c.run(["sbatch", "--parsable", "--wrap", "true"], user=user,
                  conf=conf)
        assert r.rc == 0, r
        assert c.wait_done(int(r.out.strip())) == "COMPLETED"
        assert "serving tokens" in open(d.out_path).read()
    finally:
        if d is not None:
            c.stop_daemon(d)
        conftest._stop(c)
