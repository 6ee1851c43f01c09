"""sacctmgr against a real slurmdbd on a private MariaDB.

The tests of this module share one database and run in order: the first
builds what shared/oracle/ref/sacctmgr_*.txt show (cluster "oracle",
account physics, users nobody/root/alice) and compares the output byte
for byte; later tests change things and check that refused or malformed
requests change nothing.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mariadb  # noqa: E402

REF = os.environ.get("SLUICE_ORACLE_REF", "/work/shared/oracle/ref")

pytestmark = pytest.mark.skipif(bool(mariadb.missing_tools()),
                                reason="MariaDB server not installed: %s"
                                % ", ".join(mariadb.missing_tools()))


@pytest.fixture(scope="module")
def env(users):
    e = mariadb.AcctEnv(tag="sacctmgr", cluster_name="oracle")
    try:
        e.start()
    except BaseException:
        e.stop()
        raise
    yield e
    e.finish()


def ref(name):
    """(argv after 'sacctmgr', expected output, exit code) of a ref file."""
    path = os.path.join(REF, name)
    if not os.path.exists(path):
        pytest.skip("no reference output " + path)
    with open(path) as f:
        lines = f.read().split("\n")
    cmd = lines[0]
    assert cmd.startswith("$ sacctmgr ")
    exit_line = [i for i, l in enumerate(lines) if l.startswith("[exit ")][-1]
    out = "\n".join(lines[1:exit_line]) + "\n"
    rc = int(lines[exit_line][6:-1])
    return cmd, out, rc


def split_cmd(cmd):
    import shlex
    return shlex.split(cmd)[2:]


def run_ref(env, name, compare=True):
    cmd, want, want_rc = ref(name)
    r = env.sacctmgr(*split_cmd(cmd))
    assert r.rc == want_rc, (name, r)
    if compare:
        assert r.out + r.err == want, "%s\n--- got ---\n%s%s--- want ---\n%s" % (
            name, r.out, r.err, want)
    return r


def show(env, *args):
    r = env.sacctmgr("-n", "-P", "show", *args)
    assert r.rc == 0, r
    return r.out


# ---- building the reference database ------------------------------------


def test_add_cluster(env):
    r = env.sacctmgr("-i", "add", "cluster", "oracle")
    assert r.rc == 0, r
    assert r.out == " Adding Cluster(s)\n  Name           = oracle\n"
    assert show(env, "cluster", "format=cluster") == "oracle\n"


def test_add_account_matches_ref(env):
    run_ref(env, "sacctmgr_add_account.txt")


def test_duplicate_add_says_nothing_new(env):
    run_ref(env, "sacctmgr_add_account_again.txt")


def test_add_users_match_refs(env):
    run_ref(env, "sacctmgr_add_user.txt")
    run_ref(env, "sacctmgr_add_user_root.txt")
    run_ref(env, "sacctmgr_add_user_unknown.txt")


@pytest.mark.parametrize("name", [
    "sacctmgr_show_account.txt",
    "sacctmgr_show_assoc.txt",
    "sacctmgr_show_assoc_format.txt",
    "sacctmgr_show_assoc_tree.txt",
    "sacctmgr_show_qos.txt",
    "sacctmgr_show_user.txt",
])
def test_show_matches_ref(env, name):
    run_ref(env, name)


def test_show_cluster_layout(env):
    """Same columns and widths as the ref; the controller has not
    registered, so host, port and RPC are empty/0."""
    cmd, want, _ = ref("sacctmgr_show_cluster.txt")
    r = env.sacctmgr(*split_cmd(cmd))
    assert r.rc == 0, r
    got = r.out.split("\n")
    exp = want.split("\n")
    assert got[0:2] == exp[0:2]
    assert got[2].startswith("    oracle ")
    assert len(got[2]) == len(exp[2])
    assert got[2].rstrip().endswith("normal")


def test_parsable_trailing_delimiter(env):
    r = env.sacctmgr("-p", "show", "user", "format=user,defaultaccount")
    assert r.rc == 0, r
    assert r.out.split("\n")[0] == "User|Def Acct|"
    assert "nobody|physics|" in r.out.split("\n")


# ---- refused and malformed requests change nothing -------------------------


def snapshot(env):
    return (show(env, "account"), show(env, "user"), show(env, "assoc"),
            show(env, "qos", "format=name,priority"))


def test_non_admin_add_refused(env, users):
    """Slurm shows what would have been added, then refuses."""
    before = snapshot(env)
    u = users[0].pw_name
    r = env.sacctmgr("-i", "add", "account", "chem", user=u)
    assert r.rc == 1, r
    assert r.out == (" Adding Account(s)\n  chem\n Settings\n"
                     "  Description     = Account Name\n"
                     "  Organization    = Parent/Account Name\n"
                     " Associations\n  A = chem       C = oracle    \n"), r
    assert r.err == " Problem adding accounts: Access/permission denied\n"
    denied = ("sacctmgr: error: Your user doesn't have privilege to perform "
              "this action\n Error with request: Access/permission denied\n")
    r = env.sacctmgr("-i", "modify", "user", "nobody", "set",
                     "adminlevel=admin", user=u)
    assert (r.rc, r.out, r.err) == (1, "", denied), r
    r = env.sacctmgr("-i", "delete", "user", "alice", user=u)
    assert (r.rc, r.out, r.err) == (1, "", denied), r
    assert snapshot(env) == before
    assert "may not change" in env.dbd_log_text()


def test_non_admin_may_read(env, users):
    r = env.sacctmgr("-n", "-P", "show", "account", "format=account",
                     user=users[0].pw_name)
    assert r.rc == 0, r
    assert r.out == "physics\nroot\n"


LIST_ENTITIES = (
    'Input line must include "Account", "Association", "Cluster", '
    '"Configuration",\n"Event", "Federation", "Problem", "QOS", "Resource", '
    '"Reservation",\n"RunAwayJobs", "Stats", "Transaction", "TRES", "User", '
    'or "WCKey"\n')
ADD_ENTITIES = ('Input line must include "Account", "Cluster", "Coordinator", '
                '"Federation", "QOS", "Resource", or "User"\n')
MODIFY_ENTITIES = ('Input line must include "Account", "Cluster", '
                   '"Federation", "Job", "QOS", "Resource" or "User"\n')


def test_unknown_entity(env):
    before = snapshot(env)
    for verb, word, help in (("show", "list", LIST_ENTITIES),
                             ("add", "add", ADD_ENTITIES),
                             ("delete", "delete", ADD_ENTITIES),
                             ("modify", "modify", MODIFY_ENTITIES)):
        r = env.sacctmgr("-i", verb, "bogus", "x")
        assert (r.rc, r.out) == (1, ""), r
        assert r.err == "No valid entity in %s command\n%s" % (word, help)
    # associations are only listed
    r = env.sacctmgr("-i", "modify", "assoc", "where", "user=nobody", "set",
                     "maxjobs=4")
    assert (r.rc, r.err) == (1, "No valid entity in modify command\n" +
                             MODIFY_ENTITIES), r
    r = env.sacctmgr("frobnicate", "account")
    assert r.rc == 1 and r.err == "invalid keyword: frobnicate\n", r
    assert snapshot(env) == before


def test_bad_where_clause(env):
    before = snapshot(env)
    cases = [
        (("-i", "delete", "account", "where", "color=blue"), "",
         " Unknown condition: color=blue\n Use keyword 'set' to modify value\n"
         " No conditions given to remove, not executing.\n"),
        (("-i", "delete", "qos", "where", "color=blue"), "",
         " Unknown condition: color=blue\n Use keyword 'set' to modify "
         "SLURM_PRINT_VALUE\n No conditions given to remove, not executing.\n"),
        (("-i", "delete", "cluster", "where", "color=blue"), "",
         " Unknown condition: color=blue\n Use keyword 'set' to modify value\n"),
        (("-i", "modify", "account", "where", "name=physics", "set",
          "color=blue"), "",
         " Unknown option: color=blue\n Use keyword 'where' to modify "
         "condition\n"),
        (("-i", "modify", "user", "where", "color=blue", "set",
          "fairshare=1"), "",
         " Unknown condition: color=blue\n Use keyword 'set' to modify value\n"),
        (("show", "qos", "where", "parent=root"), "",
         " Unknown condition: parent=root\n Use keyword 'set' to modify "
         "SLURM_PRINT_VALUE\n"),
        (("show", "assoc", "where", "color=blue"), "",
         " Unknown condition: color=blue\n"),
        (("-i", "add", "account", "zz", "color=blue"), "",
         " Unknown option: color=blue\n Use keyword 'where' to modify "
         "condition\n"),
        (("-i", "add", "user", "zz", "account=physics", "color=blue"), "",
         " Unknown option: color=blue\n"),
        (("-i", "add", "qos", "zz", "color=blue"),
         " Unknown option: color=blue\n Use keyword 'where' to modify "
         "condition\n", ""),
    ]
    for args, out, err in cases:
        r = env.sacctmgr(*args)
        assert (r.rc, r.out, r.err) == (1, out, err), r
    assert snapshot(env) == before


def test_unknown_names_change_nothing(env):
    before = snapshot(env)
    r = env.sacctmgr("-i", "delete", "account", "nosuch")
    assert (r.rc, r.out) == (1, " Nothing deleted\n"), r
    r = env.sacctmgr("-i", "modify", "user", "where", "name=nosuch", "set",
                     "fairshare=5")
    assert (r.rc, r.out) == (1, " Nothing modified\n"), r
    r = env.sacctmgr("-i", "add", "user", "bob", "account=nosuch")
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == (" This account 'nosuch' doesn't exist.\n        Contact "
                     "your admin to add this account.\n No associations or "
                     "wckeys created.\n"), r
    assert snapshot(env) == before


# ---- changes ------------------------------------------------------------------


def test_commit_question(env):
    before = snapshot(env)
    r = env.sacctmgr("add", "account", "chem", input="n\n")
    assert r.rc == 0, r
    assert r.out.endswith(
        " Associations\n  A = chem       C = oracle    \n"
        "Would you like to commit changes? (You have 30 seconds to decide)\n"
        "(N/y): \n Changes Discarded\n"), r
    assert snapshot(env) == before
    r = env.sacctmgr("add", "account", "chem", input="y\n")
    assert r.rc == 0, r
    assert r.out.endswith("(N/y): \n"), r
    assert "chem" in show(env, "account", "format=account").split()


def test_modify_and_delete(env):
    r = env.sacctmgr("-i", "modify", "user", "nobody", "set",
                     "adminlevel=operator", "fairshare=7", "maxjobs=2")
    assert (r.rc, r.err) == (0, ""), r
    assert r.out == (" Modified users...\n  nobody\n"
                     " Modified user associations...\n"
                     "  C = oracle     A = physics              U = nobody   \n")
    assert show(env, "user", "nobody", "format=user,admin") == \
        "nobody|Operator\n"
    assert show(env, "assoc", "where", "user=nobody",
                "format=account,user,share,maxjobs") == "physics|nobody|7|2\n"
    r = env.sacctmgr("-i", "modify", "user", "nobody", "set", "maxjobs=-1")
    assert r.rc == 0, r
    assert show(env, "assoc", "where", "user=nobody",
                "format=maxjobs") == "\n"
    r = env.sacctmgr("-i", "modify", "account", "physics", "set",
                     "fairshare=3")
    assert r.out == (" Modified account associations...\n"
                     "  C = oracle     A = physics of root\n"), r
    r = env.sacctmgr("-i", "modify", "account", "physics", "set",
                     "description=physics dept")
    assert r.out == " Modified accounts...\n  physics\n", r
    r = env.sacctmgr("-i", "modify", "cluster", "oracle", "set",
                     "fairshare=2")
    assert r.out == (" Setting\n  Default Limits:\n  Fairshare     = 2\n"
                     " Modified cluster defaults for associations...\n"
                     "  C = oracle     A = root\n"), r
    r = env.sacctmgr("-i", "delete", "account", "chem")
    assert r.rc == 0, r
    assert r.out == " Deleting accounts...\n  chem\n"
    assert "chem" not in show(env, "account", "format=account").split()


def test_operator_may_change(env, users):
    u = users[1].pw_name
    r = env.sacctmgr("-i", "add", "user", u, "account=physics",
                     "adminlevel=operator")
    assert r.rc == 0, r
    r = env.sacctmgr("-i", "add", "account", "bio", user=u)
    assert r.rc == 0, r
    # but only an administrator may grant AdminLevel
    r = env.sacctmgr("-i", "modify", "user", u, "set", "adminlevel=admin",
                     user=u)
    assert r.rc == 1, r
    r = env.sacctmgr("-i", "delete", "account", "bio")
    assert r.rc == 0, r


QOS_COLS = [("Name", 10), ("Priority", 10), ("GraceTime", 10),
            ("Preempt", 10), ("PreemptExemptTime", 19), ("PreemptMode", 11),
            ("Flags", 40), ("UsageThres", 10), ("UsageFactor", 11),
            ("GrpTRES", 13), ("GrpTRESMins", 13), ("GrpTRESRunMin", 13),
            ("GrpJobs", 7), ("GrpSubmit", 9), ("GrpWall", 11), ("MaxTRES", 13),
            ("MaxTRESPerNode", 14), ("MaxTRESMins", 13), ("MaxWall", 11),
            ("MaxTRESPU", 13), ("MaxJobsPU", 9), ("MaxSubmitPU", 11),
            ("MaxTRESPA", 13), ("MaxJobsPA", 9), ("MaxSubmitPA", 11),
            ("MinTRES", 13)]


def qos_table(rows):
    """show qos as Slurm 22.05 prints it (widths taken from the oracle)."""
    out = "".join("%*s " % (w, h) for h, w in QOS_COLS) + "\n"
    out += "".join("-" * w + " " for h, w in QOS_COLS) + "\n"
    for vals in rows:
        v = {"GraceTime": "00:00:00", "PreemptMode": "cluster",
             "UsageFactor": "1.000000"}
        v.update(vals)
        out += "".join("%*s " % (w, v.get(h, "")) for h, w in QOS_COLS) + "\n"
    return out


def test_qos(env):
    r = env.sacctmgr("show", "qos")
    assert (r.rc, r.out) == (0, qos_table([{"Name": "normal",
                                            "Priority": "0"}])), r
    r = env.sacctmgr("-i", "add", "qos", "high", "priority=100",
                     "maxwall=1-00:00:00")
    assert r.rc == 0, r
    assert r.out == (" Adding QOS(s)\n  high\n Settings\n"
                     "  Description    = high\n"
                     "  MaxWall                  = 1-00:00:00\n"
                     "  Priority                 = 100\n")
    assert show(env, "qos", "format=name,priority,maxwall") == \
        "normal|0|\nhigh|100|1-00:00:00\n"
    r = env.sacctmgr("-i", "add", "qos", "high")
    assert (r.rc, r.out) == (1, " Nothing new added.\n"), r
    r = env.sacctmgr("-i", "modify", "qos", "high", "set", "priority=50")
    assert (r.rc, r.out) == (0, " Modified qos...\n  high\n"), r


def test_two_clusters(env):
    """What cannot be done on one cluster is reported; the rest is done."""
    r = env.sacctmgr("-i", "add", "cluster", "other")
    assert r.rc == 0, r
    try:
        two_clusters(env)
    finally:
        for args in (("user", "carol"), ("user", "dave"),
                     ("account", "sub1"), ("account", "sub2")):
            env.sacctmgr("-i", "delete", *args)
        r = env.sacctmgr("-i", "delete", "cluster", "other")
    assert (r.rc, r.out) == (0, " Deleting clusters...\n  other\n"), r


def two_clusters(env):
    r = env.sacctmgr("-i", "add", "cluster", "other")
    assert (r.rc, r.out) == (1, " This cluster other already exists.  "
                             "Not adding.\n"), r
    r = env.sacctmgr("-i", "add", "account", "sub1", "parent=physics")
    assert r.rc == 1, r
    assert r.out == (" Adding Account(s)\n  sub1\n Settings\n"
                     "  Description     = Account Name\n"
                     "  Organization    = Parent/Account Name\n"
                     " Associations\n  A = sub1       C = oracle    \n"
                     " Settings\n  Parent        = physics\n"), r
    assert r.err == (" Parent account 'physics' doesn't exist on cluster "
                     "other\n        Contact your admin to add this "
                     "account.\n"), r
    assert show(env, "account", "sub1", "format=account,org") == \
        "sub1|physics\n"
    r = env.sacctmgr("-i", "add", "account", "q1", "parent=nosuch")
    assert (r.rc, r.out) == (1, ""), r
    assert r.err == "".join(
        " Parent account 'nosuch' doesn't exist on cluster %s\n        "
        "Contact your admin to add this account.\n" % c
        for c in ("oracle", "other")) + " No associations created.\n", r
    r = env.sacctmgr("-i", "add", "account", "sub2", "fairshare=5")
    assert r.rc == 0, r
    assert r.out.endswith(" Associations\n  A = sub2       C = oracle    \n"
                          "  A = sub2       C = other     \n Settings\n"
                          "  Fairshare     = 5\n  Parent        = root\n")
    r = env.sacctmgr("-i", "add", "user", "carol", "account=sub1")
    assert r.rc == 1, r
    assert r.out == (" Adding User(s)\n  carol\n Associations =\n"
                     "  U = carol     A = sub1       C = oracle    \n"
                     " Non Default Settings\n"), r
    assert r.err == (" This account 'sub1' doesn't exist on cluster other\n"
                     "        Contact your admin to add this account.\n"), r
    r = env.sacctmgr("-i", "add", "user", "dave", "account=sub2",
                     "defaultaccount=sub2", "adminlevel=operator",
                     "fairshare=4")
    assert r.rc == 0, r
    assert r.out == (" Adding User(s)\n  dave\n Settings =\n"
                     "  Default Account = sub2\n"
                     "  Admin Level     = Operator\n"
                     " Associations =\n"
                     "  U = dave      A = sub2       C = oracle    \n"
                     "  U = dave      A = sub2       C = other     \n"
                     " Non Default Settings\n  Fairshare     = 4\n"), r
    r = env.sacctmgr("-i", "delete", "user", "carol")
    assert (r.rc, r.out) == (0, " Deleting users...\n  carol\n"), r


def test_delete_then_add_again(env):
    r = env.sacctmgr("-i", "delete", "user", "alice")
    assert r.rc == 0, r
    assert r.out == " Deleting users...\n  alice\n"
    assert "alice" not in show(env, "assoc", "format=user").split()
    r = env.sacctmgr("-i", "add", "user", "alice", "account=physics")
    assert r.rc == 0, r
    assert "physics|alice" in show(env, "assoc",
                                   "format=account,user").split()


def test_restart_keeps_data(env):
    before = snapshot(env)
    env.restart_dbd()
    assert snapshot(env) == before
    assert "schema version 1" in env.dbd_log_text()


def test_withassoc(env):
    out = show(env, "user", "nobody", "withassoc",
               "format=user,defaultaccount,cluster,account,share")
    assert out == "nobody|physics|oracle|physics|7\n"
    out = show(env, "account", "physics", "withassoc",
               "format=account,cluster,parentname,user")
    lines = out.split("\n")
    assert lines[0] == "physics|oracle|root|"
    assert "physics|oracle||nobody" in lines   # users' rows: no parent


def test_database_down_then_back(env):
    """While MariaDB is down requests fail with an error and slurmdbd
    keeps running; once it is back the next request works, and nothing
    that was refused shows up."""
    before = snapshot(env)
    env.db.stop()
    try:
        r = env.sacctmgr("-n", "-P", "show", "account")
        assert r.rc == 1, r
        assert "Unable to connect to database" in r.err, r
        r = env.sacctmgr("-i", "add", "account", "lost")
        assert r.rc == 1, r
        assert env.dbd.alive()
    finally:
        env.db.start()
    assert snapshot(env) == before
    r = env.sacctmgr("-i", "add", "account", "found")
    assert r.rc == 0, r
    assert "found" in show(env, "account", "format=account").split()


def test_move_account(env):
    r = env.sacctmgr("-i", "add", "account", "theory", "parent=physics")
    assert r.rc == 0, r
    assert "  Parent        = physics\n" in r.out
    tree = show(env, "assoc", "tree", "format=account,user")
    assert "\n  theory|\n" in tree, tree
    assert show(env, "assoc", "where", "account=theory",
                "format=account,parentname") == "theory|physics\n"
    # not below itself
    r = env.sacctmgr("-i", "modify", "account", "physics", "set",
                     "parent=theory")
    assert r.rc == 1, r
    assert "below itself" in r.err
    r = env.sacctmgr("-i", "modify", "account", "theory", "set",
                     "parent=nosuch")
    assert r.rc == 1, r
    r = env.sacctmgr("-i", "modify", "account", "theory", "set",
                     "parent=root")
    assert r.rc == 0, r
    assert " Modified account associations...\n" in r.out
    assert show(env, "assoc", "where", "account=theory",
                "format=account,parentname") == "theory|root\n"
    r = env.sacctmgr("-i", "delete", "account", "theory")
    assert r.rc == 0, r


def test_tree_indents_by_depth(env):
    r = env.sacctmgr("-i", "add", "account", "sub", "parent=physics")
    assert r.rc == 0, r
    r = env.sacctmgr("-n", "show", "assoc", "tree", "where", "cluster=oracle",
                     "format=account%12,user")
    assert r.rc == 0, r
    lines = [l.rstrip() for l in r.out.split("\n") if l.strip()]
    assert lines[0].split() == ["root"], lines
    sub = [l for l in lines if l.strip() == "sub"]
    assert sub and sub[0].startswith("  sub"), lines
    r = env.sacctmgr("-i", "delete", "account", "sub")
    assert r.rc == 0, r


def test_slurmdbd_down(env):
    env.stop_dbd()
    try:
        r = env.sacctmgr("show", "account", timeout=60)
        assert r.rc == 1, r
        assert "sacctmgr: error: Problem talking to the database: " in r.err
    finally:
        env.start_dbd()
    assert show(env, "account", "format=account") != ""


def table(cols, rows):
    """A sacctmgr table: right-justified cells, a space after each."""
    out = "".join("%*s " % (w, h) for h, w in cols) + "\n"
    out += "".join("-" * w + " " for h, w in cols) + "\n"
    for vals in rows:
        out += "".join("%*s " % (w, vals.get(h, "")) for h, w in cols) + "\n"
    return out


USER_ASSOC_COLS = [("User", 10), ("Def Acct", 10), ("Admin", 9),
                   ("Cluster", 10), ("Account", 10), ("Partition", 10),
                   ("Share", 9), ("Priority", 10), ("MaxJobs", 7),
                   ("MaxNodes", 8), ("MaxCPUs", 8), ("MaxSubmit", 9),
                   ("MaxWall", 11), ("MaxCPUMins", 11), ("QOS", 20),
                   ("Def QOS", 9)]
ACCOUNT_ASSOC_COLS = [("Account", 10), ("Descr", 20), ("Org", 20),
                      ("Cluster", 10), ("ParentName", 10), ("User", 10),
                      ("Share", 9), ("Priority", 10), ("GrpJobs", 7),
                      ("GrpNodes", 8), ("GrpCPUs", 8), ("GrpMem", 7),
                      ("GrpSubmit", 9), ("GrpWall", 11), ("GrpCPUMins", 11),
                      ("MaxJobs", 7), ("MaxNodes", 8), ("MaxCPUs", 8),
                      ("MaxSubmit", 9), ("MaxWall", 11), ("MaxCPUMins", 11),
                      ("QOS", 20), ("Def QOS", 9)]


def test_withassoc_tables(env):
    """Default withassoc layouts, as Slurm 22.05 prints them."""
    r = env.sacctmgr("-i", "modify", "user", "nobody", "set", "maxjobs=2")
    assert r.rc == 0, r
    try:
        r = env.sacctmgr("show", "user", "nobody", "withassoc")
        assert (r.rc, r.out) == (0, table(USER_ASSOC_COLS, [{
            "User": "nobody", "Def Acct": "physics", "Admin": "Operator",
            "Cluster": "oracle", "Account": "physics", "Share": "7",
            "MaxJobs": "2", "QOS": "normal"}])), r
        r = env.sacctmgr("-n", "-P", "show", "account", "physics",
                         "withassoc", "where", "user=nobody",
                         "format=account,user")
        assert (r.rc, r.out) == (0, "physics|nobody\n"), r
        r = env.sacctmgr("show", "account", "physics", "withassoc")
        assert r.rc == 0, r
        want = table(ACCOUNT_ASSOC_COLS, [{
            "Account": "physics", "Descr": "physics dept", "Org": "science",
            "Cluster": "oracle", "User": "nobody", "Share": "7",
            "MaxJobs": "2", "QOS": "normal"}]).split("\n")
        got = r.out.split("\n")
        assert got[0:2] == want[0:2]
        assert want[2] in got, r.out
    finally:
        env.sacctmgr("-i", "modify", "user", "nobody", "set", "maxjobs=-1")


def test_slurmdbd_bad_config(env, tmp_path):
    """A bad slurmdbd.conf stops the daemon with file:line, exit 1."""
    import subprocess
    conf = tmp_path / "slurmdbd.conf"
    conf.write_text("DbdPort=1\nFoo=bar\n")
    p = subprocess.run([env.dbd_bin(), "-D", "-f", str(conf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=30)
    assert p.returncode == 1
    assert p.stderr == 'slurmdbd: fatal: %s:2: unknown key "Foo"\n' % conf
    p = subprocess.run([env.dbd_bin(), "-V"], stdout=subprocess.PIPE,
                       text=True, timeout=30)
    assert (p.returncode, p.stdout) == (0, "slurm 25.05.0\n")
