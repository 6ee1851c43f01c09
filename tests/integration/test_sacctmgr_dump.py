"""sacctmgr dump / load (Slurm's association flat file).

slurmdbd and its MariaDB only (no controller).  The dump of a setup is
byte-compared with what Slurm 22.05's sacctmgr dumped for the same
commands; dump, delete everything, load, dump again gives the same file;
a bad file (refused by the parser, or by slurmdbd half way) changes
nothing; load clean removes what the file does not name; users who are
not Administrators are refused.
"""

import os
import pwd
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))

SETUP = [
    "add qos high priority=100", "add qos low",
    "add account phys description=physics\\ dept organization=sci "
    "fairshare=40",
    "add account chem description=chemistry organization=sci fairshare=20 "
    "maxjobs=7 grpjobs=30 maxwall=60",
    "add account qc parent=chem description=quantum organization=sci "
    "fairshare=parent",
    "add account lim2 description=limits organization=org fairshare=3 "
    "grpjobs=1 grpsubmitjobs=3 grptres=cpu=4,mem=2G grpwall=7 maxjobs=8 "
    "maxsubmitjobs=10 maxtres=cpu=12,node=2 maxtrespernode=cpu=13 "
    "maxwall=1-00:00:00 priority=15 qos=high,low defaultqos=low "
    "grptresmins=cpu=5,mem=1G grptresrunmins=cpu=6 "
    "maxtresminsperjob=cpu=11,node=1",
    "add user alice account=phys fairshare=5 maxsubmitjobs=9",
    "add user bob account=phys,chem defaultaccount=chem qos=normal,high "
    "defaultqos=high adminlevel=operator grptres=cpu=4 maxtres=cpu=2,mem=100",
    "add user carol account=qc fairshare=parent",
    "add coordinator names=alice account=phys",
]

HEADER = """\
# To edit this file start with a cluster line for the new cluster
# Cluster - 'cluster_name':MaxTRESPerJob=node=50
# Followed by Accounts you want in this fashion (root is created by default)...
# Parent - 'root'
# Account - 'cs':MaxTRESPerJob=node=5:MaxJobs=4:MaxTRESMinsPerJob=cpu=20:FairShare=399:MaxWallDurationPerJob=40:Description='Computer Science':Organization='LC'
# Any of the options after a ':' can be left out and they can be in any order.
# If you want to add any sub accounts just list the Parent THAT HAS ALREADY
# BEEN CREATED before the account line in this fashion...
# Parent - 'cs'
# Account - 'test':MaxTRESPerJob=node=1:MaxJobs=1:MaxTRESMinsPerJob=cpu=1:FairShare=1:MaxWallDurationPerJob=1:Description='Test Account':Organization='Test'
# To add users to a account add a line like this after a Parent - 'line'
# User - 'lipari':MaxTRESPerJob=node=2:MaxJobs=3:MaxTRESMinsPerJob=cpu=4:FairShare=1:MaxWallDurationPerJob=1
"""

# What Slurm 22.05's "sacctmgr dump oracle file=F" wrote for SETUP.
SLURM_DUMP = HEADER + """\
Cluster - 'oracle':Fairshare=1:QOS='normal'
Parent - 'root'
User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1
Account - 'chem':Description='chemistry':Organization='sci':Fairshare=20:GrpJobs=30:MaxJobs=7:MaxWallDurationPerJob=60
Account - 'lim2':Description='limits':Organization='org':DefaultQOS='low':Fairshare=3:GrpTRESMins=cpu=5,mem=1G:GrpTRESRunMins=cpu=6:GrpTRES=cpu=4,mem=2G:GrpJobs=1:GrpSubmitJobs=3:GrpWall=7:MaxTRESMinsPerJob=cpu=11,node=1:MaxTRESPerJob=cpu=12,node=2:MaxTRESPerNode=cpu=13:MaxJobs=8:MaxSubmitJobs=10:MaxWallDurationPerJob=1440:Priority=15:QOS='high,low'
Account - 'phys':Description='physics dept':Organization='sci':Fairshare=40
Parent - 'chem'
User - 'bob':DefaultAccount='chem':AdminLevel='Operator':DefaultQOS='high':Fairshare=1:GrpTRES=cpu=4:MaxTRESPerJob=cpu=2,mem=100M:QOS='high,normal'
Account - 'qc':Description='quantum':Organization='sci':Fairshare=2147483647
Parent - 'qc'
User - 'carol':DefaultAccount='qc':Fairshare=2147483647
Parent - 'phys'
User - 'alice':DefaultAccount='phys':Coordinator='phys':Fairshare=5:MaxSubmitJobs=9
User - 'bob':DefaultAccount='chem':AdminLevel='Operator':DefaultQOS='high':Fairshare=1:GrpTRES=cpu=4:MaxTRESPerJob=cpu=2,mem=100M:QOS='high,normal'
"""

U1 = "sluice_u1"


def _split(cmd):
    """Words of a setup line; '\\ ' keeps a blank inside a word."""
    return [w.replace("\0", " ") for w in
            cmd.replace("\\ ", "\0").split()]


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="acctdump", cluster_name="oracle", nodes=1)
    try:
        e.start()
        r = e.sacctmgr("-i", "add", "cluster", "oracle")
        assert r.rc == 0, r
        for cmd in SETUP:
            r = e.sacctmgr("-i", *_split(cmd))
            assert r.rc == 0, (cmd, r)
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def _path(e, name):
    return os.path.join(e.dir, name)


def _dump(e, name):
    path = _path(e, name)
    r = e.sacctmgr("dump", "oracle", "file=" + path)
    assert r.rc == 0, r
    with open(path) as f:
        return f.read(), r


def _assocs(e):
    r = e.sacctmgr("-n", "-P", "show", "assoc", "format=account,user")
    assert r.rc == 0, r
    return sorted(r.out.split())


def test_dump_is_slurms(env):
    text, r = _dump(env, "d1.cfg")
    assert text == SLURM_DUMP
    # every line but the comments is echoed on stderr, as Slurm does
    assert r.out == ""
    assert r.err.splitlines() == [
        "sacctmgr: " + ln for ln in SLURM_DUMP.splitlines()
        if not ln.startswith("#")]
    # without file=: ./<cluster>.cfg
    r = env.c.run([env.sacctmgr_bin(), "dump", "oracle"], cwd=env.dir)
    assert r.rc == 0 and r.out == " No filename given, using ./oracle.cfg.\n"
    with open(_path(env, "oracle.cfg")) as f:
        assert f.read() == SLURM_DUMP
    r = env.sacctmgr("dump", "nosuch", "file=" + _path(env, "x.cfg"))
    assert (r.rc, r.err) == (1, " Cluster nosuch doesn't exist.\n"), r
    assert not os.path.exists(_path(env, "x.cfg"))
    r = env.sacctmgr("dump")
    assert (r.rc, r.err) == (1, " We need a cluster to dump.\n"), r


def test_dump_delete_load_dump(env):
    before, _ = _dump(env, "d2.cfg")
    for cmd in (["delete", "user", "alice,bob,carol"],
                ["delete", "account", "qc"],
                ["delete", "account", "chem,phys,lim2"]):
        r = env.sacctmgr("-i", *cmd)
        assert r.rc == 0, r
    assert _assocs(env) == ["root|", "root|root"]
    r = env.sacctmgr("-i", "load", _path(env, "d2.cfg"))
    assert r.rc == 0, r
    assert r.out.startswith("For cluster oracle\n Adding Account(s)\n"
                            "  chem\n  lim2\n  phys\n  qc\n"), r.out
    assert "  C = oracle     A = phys       U = alice    \n" in r.out
    after, _ = _dump(env, "d3.cfg")
    assert after == before
    # loading it again changes nothing
    r = env.sacctmgr("-i", "load", "file=" + _path(env, "d2.cfg"))
    assert (r.rc, r.out) == (0, "For cluster oracle\n Nothing new added.\n")


def _write(e, name, text):
    with open(_path(e, name), "w") as f:
        f.write(text)
    return _path(e, name)


def test_bad_file_changes_nothing(env):
    before = _assocs(env)
    # refused by the parser: the line and why
    bad = _write(env, "bad1.cfg", "Cluster - 'oracle'\nParent - 'root'\n"
                 "Account - 'zz':Fairshare=1\nAccount - 'zy':Bogus=3\n")
    r = env.sacctmgr("-i", "load", bad)
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == " Unknown option: Bogus=3\n Problem with line(4)\n"
    bad = _write(env, "bad2.cfg", "Parent - 'root'\nAccount - 'zz'\n")
    r = env.sacctmgr("-i", "load", bad)
    assert r.rc == 1 and r.err == (
        " You need to specify a cluster name first with 'Cluster - $NAME' "
        "in your file\n Problem with line(1)\n"), r
    bad = _write(env, "bad3.cfg", "Cluster - 'oracle'\nAccount - 'zz':"
                 "MaxJobs=many\n")
    r = env.sacctmgr("-i", "load", bad)
    assert r.rc == 1 and "line(2)" in r.err and "MaxJobs" in r.err, r
    # refused by slurmdbd on line 5 after line 3 was added: rolled back
    bad = _write(env, "bad4.cfg", "Cluster - 'oracle'\nParent - 'root'\n"
                 "Account - 'zz':Fairshare=1\nParent - 'zz'\n"
                 "User - 'dave':DefaultQOS='nosuch'\n")
    r = env.sacctmgr("-i", "load", bad)
    assert r.rc == 1, r
    assert r.err.startswith("You gave a bad default qos 'nosuch'."), r
    assert " Problem with line(5)\n" in r.err, r
    assert _assocs(env) == before
    r = env.sacctmgr("-n", "-P", "show", "account", "zz")
    assert r.out == "", r
    r = env.sacctmgr("-i", "load", _path(env, "missing.cfg"))
    assert r.rc == 1 and "Unable to read" in r.err, r


def test_load_clean_and_cluster(env):
    for cmd in (["add", "account", "extra"],
                ["modify", "account", "lim2", "set", "grptres=node=9",
                 "maxjobs=99"],
                ["modify", "account", "phys", "set", "maxjobs=5"]):
        r = env.sacctmgr("-i", *cmd)
        assert r.rc == 0, r
    # the file's settings replace those of existing associations (its
    # TRES list too); a limit it leaves out stays
    r = env.sacctmgr("-i", "load", _path(env, "d2.cfg"))
    assert r.rc == 0, r
    text, _ = _dump(env, "d5.cfg")
    phys = ("Account - 'phys':Description='physics dept':"
            "Organization='sci':Fairshare=40")
    extra = "Account - 'extra':Description='extra':Organization='extra':" \
        "Fairshare=1\n"
    chem = SLURM_DUMP.index("Account - 'lim2'")
    want = SLURM_DUMP[:chem] + extra + SLURM_DUMP[chem:]
    assert text == want.replace(phys, phys + ":MaxJobs=5")
    r = env.sacctmgr("-i", "load", _path(env, "d2.cfg"), "clean")
    assert r.rc == 0, r
    assert r.out.startswith("For cluster oracle\n Removing Associations\n"
                            "  C = oracle     A = extra      U ="), r.out
    assert "extra|" not in _assocs(env)
    text, _ = _dump(env, "d4.cfg")
    assert text == SLURM_DUMP
    # the same associations on another cluster
    r = env.sacctmgr("-i", "load", _path(env, "d2.cfg"), "cluster=other")
    assert r.rc == 0 and " Adding Cluster(s)\n  other\n" in r.out, r
    path = _path(env, "other.cfg")
    r = env.sacctmgr("dump", "other", "file=" + path)
    with open(path) as f:
        assert f.read() == SLURM_DUMP.replace("Cluster - 'oracle'",
                                              "Cluster - 'other'")


def test_non_admin_refused(env):
    path = _path(env, "d2.cfg")
    os.chmod(env.dir, 0o755)
    os.chmod(path, 0o644)
    out = "/tmp/sluice-dump-%d.cfg" % os.getpid()
    r = env.sacctmgr("dump", "oracle", "file=" + out, user=U1)
    assert r.rc == 1 and r.err == (
        " Your uid (%d) is not in the accounting system, can't dump "
        "cluster.\n" % pwd.getpwnam(U1).pw_uid), r
    r = env.sacctmgr("-i", "add", "user", U1, "account=phys")
    assert r.rc == 0, r
    r = env.sacctmgr("dump", "oracle", "file=" + out, user=U1)
    assert (r.rc, r.err) == (1, " Your user does not have sufficient "
                             "privileges to dump clusters.\n"), r
    assert not os.path.exists(out)
    before = _assocs(env)
    r = env.sacctmgr("-i", "load", path, "clean", user=U1)
    assert (r.rc, r.err) == (1, " Your user does not have sufficient "
                             "privileges to load files.\n"), r
    assert _assocs(env) == before
    # an Administrator may
    r = env.sacctmgr("-i", "modify", "user", U1, "set",
                     "adminlevel=Administrator")
    assert r.rc == 0, r
    r = env.sacctmgr("dump", "oracle", "file=" + out, user=U1)
    try:
        assert r.rc == 0, r
    finally:
        if os.path.exists(out):
            os.unlink(out)
