"""sbcast, srun --bcast and sgather (4-node loopback cluster).

The nodes share this host's file system, so a file sent to every node
goes to a directory DEST ending in '/': each node writes its own copy,
slurm_bcast_<job>_<node> (as srun --bcast names its copies).
- a 50 MiB file reaches the 4 nodes of u1's job, written as u1, checked
  by checksum (plain and lz4-compressed, sent in 8 MiB blocks);
- outside an allocation sbcast is refused as Slurm refuses it;
- a destination u1 cannot write gives Slurm's per-node message
  ("REQUEST_FILE_BCAST(n1): Permission denied") and nothing is written;
- u2 cannot get a credential for u1's job ("Invalid user id");
- a node's error code is sbcast's exit status (13, 17), as Slurm 22.05's;
- the copies get the source's mode (with -p its times too);
- srun --bcast runs the copy it made on each node;
- sgather brings one file per node back as DEST.<node>, and removes the
  node's file unless --keep.
"""

import hashlib
import os
import pwd
import re

import pytest

U = "sluice_u1"
OTHER = "sluice_u2"
MIB = 1024 * 1024


def _sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(MIB), b""):
            h.update(chunk)
    return h.hexdigest()


@pytest.fixture(scope="module")
def job(cluster):
    """u1's 4-node job, running for the whole module."""
    c = cluster
    c.wait_ready()
    jid = c.sbatch(["-N4", "-o", "/dev/null", "--wrap", "sleep 600"], user=U)
    c.wait_state(jid, "RUNNING", timeout=60)
    yield jid
    c.run(["scancel", str(jid)])


def _env(jid):
    return {"SLURM_JOB_ID": str(jid)}


def _big_file(c, name, compressible):
    path = os.path.join(c.workdir(U), name)
    with open(path, "wb") as f:
        if compressible:
            line = b"".join(b"line %08d of a compressible file\n" % i
                            for i in range(1000))
            while f.tell() < 50 * MIB:
                f.write(line)
            f.truncate(50 * MIB)
        else:
            f.write(os.urandom(50 * MIB))
    pw = pwd.getpwnam(U)
    os.chown(path, pw.pw_uid, pw.pw_gid)
    return path


def _dest_dir(c, name):
    return c.mkdir_for(U, os.path.join(c.workdir(U), name))


@pytest.mark.parametrize("compress", [False, True])
def test_50mib_to_four_nodes(cluster, job, compress):
    c = cluster
    src = _big_file(c, "big%d.bin" % compress, compressible=compress)
    d = _dest_dir(c, "out%d" % compress)
    argv = ["sbcast"] + (["-C"] if compress else []) + [src, d + "/"]
    r = c.run(argv, user=U, env=_env(job), timeout=240)
    assert r.rc == 0, r
    assert r.err == "", r
    want = _sha(src)
    uid = pwd.getpwnam(U).pw_uid
    for n in ("n1", "n2", "n3", "n4"):
        p = os.path.join(d, "slurm_bcast_%d_%s" % (job, n))
        st = os.stat(p)
        assert st.st_uid == uid, (p, st)          # written as the user
        assert st.st_size == 50 * MIB
        assert _sha(p) == want, p
    # each node took the file in blocks (8 MiB, the last one smaller)
    for n in ("n1", "n4"):
        log = open(c.slurmd_log(n)).read()
        assert "sbcast JobId=%d uid=%d: %s" % (job, uid, os.path.join(
            d, "slurm_bcast_%d_%s" % (job, n))) in log


def test_exists_needs_force_preserve(cluster, job):
    c = cluster
    src = c.write_file(U, os.path.join(c.workdir(U), "small.sh"),
                       "#!/bin/sh\necho hi\n", mode=0o751)
    os.utime(src, (1000000000, 1000000000))
    d = _dest_dir(c, "small")
    r = c.run(["sbcast", "-j", str(job), src, d + "/"], user=U)
    assert r.rc == 0, r
    st = os.stat(os.path.join(d, "slurm_bcast_%d_n2" % job))
    assert st.st_mode & 0o777 == 0o751              # the mode without -p
    assert int(st.st_mtime) != 1000000000
    r = c.run(["sbcast", "-j", str(job), src, d + "/"], user=U)
    assert r.rc == 17, r                # EEXIST, as Slurm exits
    for n in ("n1", "n2", "n3", "n4"):
        assert "sbcast: error: REQUEST_FILE_BCAST(%s): File exists\n" % n \
            in r.err, r
    r = c.run(["sbcast", "-f", "-p", "-j", str(job), src, d + "/"], user=U)
    assert r.rc == 0, r
    st = os.stat(os.path.join(d, "slurm_bcast_%d_n3" % job))
    assert st.st_mode & 0o777 == 0o751
    assert int(st.st_mtime) == 1000000000


def test_refused_outside_allocation(cluster):
    c = cluster
    src = c.write_file(U, os.path.join(c.workdir(U), "x.txt"), "x\n")
    r = c.run(["sbcast", src, "/tmp/sluice_never_written"], user=U)
    assert r.rc == 1, r
    assert r.err == ("sbcast: error: Need a job id to run this command.  "
                     "Run from within a Slurm job or use the --jobid "
                     "option.\n"), r
    assert not os.path.exists("/tmp/sluice_never_written")


def test_unwritable_destination(cluster, job):
    c = cluster
    src = c.write_file(U, os.path.join(c.workdir(U), "y.txt"), "y\n")
    locked = os.path.join(c.workdir(U), "locked")
    os.makedirs(locked, exist_ok=True)
    os.chmod(locked, 0o755)                 # root's: u1 cannot write
    r = c.run(["sbcast", src, locked + "/"], user=U, env=_env(job))
    assert r.rc == 13, r                # EACCES, as Slurm exits
    for n in ("n1", "n2", "n3", "n4"):
        assert ("sbcast: error: REQUEST_FILE_BCAST(%s): Permission denied\n"
                % n) in r.err, r
    assert os.listdir(locked) == []


def test_other_users_job(cluster, job):
    c = cluster
    src = c.write_file(OTHER, os.path.join(c.workdir(OTHER), "z.txt"), "z\n")
    d = c.mkdir_for(OTHER, os.path.join(c.workdir(OTHER), "steal"))
    r = c.run(["sbcast", "-j", str(job), src, d + "/"], user=OTHER)
    assert r.rc == 255, r
    assert r.err == ("sbcast: error: Slurm job %d lookup error: "
                     "Invalid user id\n" % job), r
    assert os.listdir(d) == []
    r = c.run(["sbcast", "-j", "999999", src, d + "/"], user=OTHER)
    assert r.rc == 255, r
    assert "Slurm job 999999 lookup error: Invalid job id specified" in r.err


def test_srun_bcast_runs_the_copy(cluster, job):
    c = cluster
    d = c.workdir(U)
    prog = c.write_file(U, os.path.join(d, "whoami.sh"),
                        "#!/bin/sh\necho \"$SLURMD_NODENAME $0\"\n",
                        mode=0o755)
    r = c.run(["srun", "--jobid=%d" % job, "--overlap", "-N4", "-n4",
               "--bcast", prog], user=U, timeout=120)
    assert r.rc == 0, r
    got = {}
    for line in r.out.splitlines():
        node, path = line.split()
        got[node] = path
    assert sorted(got) == ["n1", "n2", "n3", "n4"], r
    for node, path in got.items():
        m = re.fullmatch(re.escape(d) + r"/slurm_bcast_%d\.(\d+)_%s"
                         % (job, node), path)
        assert m, (node, path)
        assert os.path.exists(path)
    # --bcast=DIR/ puts the copies there
    bd = c.mkdir_for(U, os.path.join(d, "bdir"))
    r = c.run(["srun", "--jobid=%d" % job, "--overlap", "-N2", "-n2",
               "--bcast=%s/" % bd, "--compress", prog], user=U, timeout=120)
    assert r.rc == 0, r
    assert all(os.path.dirname(l.split()[1]) == bd
               for l in r.out.splitlines()), r


def test_sgather_one_file_per_node(cluster, job):
    c = cluster
    d = c.workdir(U)
    src = c.write_file(U, os.path.join(d, "result.txt"), "result data\n" * 1000)
    dest = os.path.join(d, "gathered", "res")
    c.mkdir_for(U, os.path.dirname(dest))
    r = c.run(["sgather", "--keep", "-C", src, dest], user=U, env=_env(job))
    assert r.rc == 0, r
    for n in ("n1", "n2", "n3", "n4"):
        with open("%s.%s" % (dest, n)) as f:
            assert f.read() == "result data\n" * 1000
    assert os.path.exists(src)          # --keep
    # again without -f: the copies are there
    r = c.run(["sgather", "--keep", src, dest], user=U, env=_env(job))
    assert r.rc == 255, r
    assert "Can't open `%s.n1`: File exists" % dest in r.err, r


def test_sgather_removes_unless_keep(cluster):
    c = cluster
    d = c.workdir(U)
    jid = c.sbatch(["-N1", "-o", "/dev/null", "--wrap", "sleep 300"], user=U)
    c.wait_state(jid, "RUNNING", timeout=60)
    try:
        src = c.write_file(U, os.path.join(d, "once.txt"), "once\n")
        node = c.show_job(jid)["NodeList"]
        r = c.run(["sgather", "-j", str(jid), src,
                   os.path.join(d, "once.copy")], user=U)
        assert r.rc == 0, r
        with open(os.path.join(d, "once.copy.%s" % node)) as f:
            assert f.read() == "once\n"
        assert not os.path.exists(src)
    finally:
        c.run(["scancel", str(jid)])


def test_fanout_tree_and_send_libs(cluster, job):
    """-F 2: two groups of two nodes, the second node of each reached
    through the first (REQUEST_FORWARD); --send-libs puts what ldd lists
    outside the excluded directories beside the copies."""
    c = cluster
    d = _dest_dir(c, "tree")
    src = "/bin/true"
    # -f: the nodes share this host's disk, and so the libraries' path
    r = c.run(["sbcast", "-f", "-F", "2", "--send-libs", "--exclude=NONE", src,
               d + "/"], user=U, env=_env(job), timeout=120)
    assert r.rc == 0, r
    for n in ("n1", "n2", "n3", "n4"):
        assert _sha(os.path.join(d, "slurm_bcast_%d_%s" % (job, n))) == \
            _sha(src)
    libs = os.path.join(d, "slurm_bcast_%d__libs" % job)
    assert any(x.startswith("libc.so") for x in os.listdir(libs)), r
    for head in ("n1", "n3"):
        assert "forward: REQUEST_FILE_BCAST for 2 node(s) from uid %d" % (
            pwd.getpwnam(U).pw_uid) in open(c.slurmd_log(head)).read()


def test_bcast_exclude_conf(cluster, job):
    """--send-libs leaves out what lies under BcastExclude (by default
    /lib, /usr/lib, /lib64, /usr/lib64: nothing of /bin/true's);
    BcastExclude=NONE in slurm.conf sends them, --exclude overrides it."""
    c = cluster
    d = _dest_dir(c, "excl")
    r = c.run(["sbcast", "-f", "--send-libs", "/bin/true", d + "/"],
              user=U, env=_env(job))
    assert r.rc == 0, r
    assert not os.path.exists(os.path.join(d, "slurm_bcast_%d__libs" % job))
    conf = os.path.join(c.dir, "etc", "slurm-bcast-none.conf")
    with open(c.conf) as f, open(conf, "w") as g:
        g.write(f.read() + "\nBcastExclude=NONE\n")
    os.chmod(conf, 0o644)
    r = c.run(["sbcast", "-f", "--send-libs", "/bin/true", d + "/"],
              user=U, env=_env(job), conf=conf)
    assert r.rc == 0, r
    libs = os.path.join(d, "slurm_bcast_%d__libs" % job)
    assert any(x.startswith("libc.so") for x in os.listdir(libs)), r
    d2 = _dest_dir(c, "excl2")
    r = c.run(["sbcast", "-f", "--send-libs", "--exclude=/lib,/usr/lib",
               "/bin/true", d2 + "/"], user=U, env=_env(job), conf=conf)
    assert r.rc == 0, r
    assert not os.path.exists(os.path.join(d2, "slurm_bcast_%d__libs" % job))


def test_sgather_recursive(cluster, job):
    c = cluster
    d = c.workdir(U)
    top = c.mkdir_for(U, os.path.join(d, "tree_src"))
    sub = c.mkdir_for(U, os.path.join(top, "sub"))
    c.write_file(U, os.path.join(top, "a.txt"), "a\n")
    c.write_file(U, os.path.join(sub, "b.txt"), "b\n")
    dest = os.path.join(c.mkdir_for(U, os.path.join(d, "tree_dst")), "t")
    r = c.run(["sgather", "-r", "-k", "-j", "%d" % job, top, dest], user=U)
    assert r.rc == 0, r
    for n in ("n1", "n2", "n3", "n4"):
        with open(os.path.join("%s.%s" % (dest, n), "sub", "b.txt")) as f:
            assert f.read() == "b\n"
        with open(os.path.join("%s.%s" % (dest, n), "a.txt")) as f:
            assert f.read() == "a\n"
    # without -r a directory is refused by each node
    r = c.run(["sgather", "-k", "-j", "%d" % job, top, dest + "x"], user=U)
    assert r.rc == 255, r
    assert ("sgather: error: REQUEST_FILE_GATHER(n1): %s: Is a directory"
            % top) in r.err, r


def test_srun_bcast_unwritable(cluster, job):
    """As Slurm 22.05: each node's error, then the step is not launched."""
    c = cluster
    d = c.workdir(U)
    c.write_file(U, os.path.join(d, "never.sh"), "#!/bin/sh\necho ran\n",
                 mode=0o755)
    locked = os.path.join(d, "locked2")
    os.makedirs(locked, exist_ok=True)
    os.chmod(locked, 0o755)
    r = c.run(["srun", "--jobid=%d" % job, "--overlap", "-N2", "-n2",
               "--bcast=%s/" % locked, "./never.sh"], user=U, timeout=120)
    assert r.rc == 1, r
    assert "ran" not in r.out
    assert ("srun: fatal: Failed to broadcast '%s/./never.sh'. Step launch "
            "aborted.\n" % d) in r.err, r
    assert "srun: error: REQUEST_FILE_BCAST(n1): Permission denied\n" \
        in r.err, r


def _steps(c, jid):
    r = c.run(["squeue", "-h", "-s", "-j", str(jid), "-o", "%i"])
    assert r.rc == 0, r
    return sorted(r.out.split())


def test_failed_bcast_leaves_no_step(cluster, job):
    """srun --bcast that fails ends the step it created: it is not left
    in the job (holding its CPUs) for squeue -s to show."""
    c = cluster
    d = c.workdir(U)
    c.write_file(U, os.path.join(d, "never2.sh"), "#!/bin/sh\necho ran\n",
                 mode=0o755)
    locked = os.path.join(d, "locked3")
    os.makedirs(locked, exist_ok=True)
    os.chmod(locked, 0o755)
    before = _steps(c, job)
    r = c.run(["srun", "--jobid=%d" % job, "--overlap", "-N2", "-n2",
               "--bcast=%s/" % locked, "./never2.sh"], user=U, timeout=120)
    assert r.rc == 1, r
    assert "Step launch aborted" in r.err, r
    assert _steps(c, job) == before
    # the job's CPUs are free for the next step at once
    r = c.run(["srun", "--jobid=%d" % job, "-N4", "-n4", "--exact",
               "true"], user=U, timeout=60)
    assert r.rc == 0, r


def _conf_with(c, name, line):
    conf = os.path.join(c.dir, "etc", name)
    with open(c.conf) as f, open(conf, "w") as g:
        g.write(f.read() + "\n" + line + "\n")
    os.chmod(conf, 0o644)
    return conf


def test_bcast_parameters(cluster, job):
    """BcastParameters=DestDir=...: a relative sbcast DEST and srun
    --bcast's copies go there; Compression= and send_libs are taken
    when the command line does not say; an unknown word is refused."""
    c = cluster
    d = c.workdir(U)
    dest = _dest_dir(c, "bp_dest")
    conf = _conf_with(c, "slurm-bp.conf", "BcastParameters=DestDir=%s,"
                      "Compression=lz4,send_libs" % dest)
    src = c.write_file(U, os.path.join(d, "bp.sh"),
                       "#!/bin/sh\necho \"$0\"\n", mode=0o755)
    r = c.run(["sbcast", "-f", src, "copy.sh"], user=U, env=_env(job),
              conf=conf)
    assert r.rc == 0, r
    assert open(os.path.join(dest, "copy.sh")).read() == \
        open(src).read()
    r = c.run(["srun", "--jobid=%d" % job, "--overlap", "-N2", "-n2",
               "--bcast", src], user=U, timeout=120, conf=conf)
    assert r.rc == 0, r
    paths = r.out.split()
    assert len(paths) == 2, r
    assert all(os.path.dirname(p) == dest for p in paths), r
    bad = _conf_with(c, "slurm-bp-bad.conf", "BcastParameters=Bogus")
    r = c.run(["sbcast", "-f", src, "copy2.sh"], user=U, env=_env(job),
              conf=bad)
    assert r.rc != 0, r
    assert "BcastParameters option Bogus: not supported" in r.err, r
    assert not os.path.exists(os.path.join(dest, "copy2.sh"))
