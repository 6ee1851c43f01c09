"""CliFilterPlugins in sbatch/srun/salloc: user_defaults (the user's
~/.slurm/defaults), lua (cli_filter.lua beside slurm.conf), and an
unknown name.  The behaviour checked is Slurm 22.05's, observed: one
prefix of a defaults line is the cluster, two are command and cluster;
defaults are below #SBATCH lines and the command line."""

import os
import re
import pwd
import shutil
import textwrap

import pytest

U = "sluice_u1"
LUA = textwrap.dedent("""\
    function slurm_cli_setup_defaults(options, early_pass)
        options["time"] = "13"
        return slurm.SUCCESS
    end
    function slurm_cli_pre_submit(options, offset)
        slurm.log_info("pre type=%s time=%s comment=%s", options.type,
                       tostring(options["time"]), tostring(options.comment))
        if options.comment == "bad" then
            slurm.log_error("refusing: %s", options.comment)
            return slurm.ERROR
        end
        if options.comment == "raise" then
            error("oops")
        end
        if options.comment == "chg" then
            options["partition"] = "p2"
        end
        slurm.cli_store(offset, slurm.json_cli_options(options))
        return slurm.SUCCESS
    end
    function slurm_cli_post_submit(offset, job_id, step_id)
        slurm.log_info("post job=%d step=%d stored=%s", job_id, step_id,
                       slurm.cli_retrieve(offset))
        return slurm.SUCCESS
    end
    """)


@pytest.fixture(scope="module")
def fc(users):
    import conftest
    c = conftest._start(tag="clif", nodes=1,
                        extra_conf="PartitionName=p2 Nodes=n1")
    yield c
    conftest._stop(c)


def set_filters(c, names):
    c.extra_conf = "PartitionName=p2 Nodes=n1\nCliFilterPlugins=%s" % names
    c.write_conf()


def defaults_file(lines):
    home = pwd.getpwnam(U).pw_dir
    d = os.path.join(home, ".slurm")
    if lines is None:
        shutil.rmtree(d, ignore_errors=True)
        return
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "defaults"), "w") as f:
        f.write("\n".join(lines) + "\n")
    pw = pwd.getpwnam(U)
    os.chown(d, pw.pw_uid, pw.pw_gid)
    os.chown(os.path.join(d, "defaults"), pw.pw_uid, pw.pw_gid)


def submit(c, args, script=None):
    r = c.run(["sbatch", "-H", "-o", "/dev/null"] + args +
              ([] if script else ["--wrap", "true"]) +
              ([script] if script else []), user=U)
    return r


def job_field(c, r, fmt):
    jid = r.out.split()[-1]
    return c.run(["squeue", "-h", "-j", jid, "-o", fmt]).out.strip()


def test_unknown_filter_stops_the_command(fc):
    set_filters(fc, "nosuch")
    r = submit(fc, [])
    assert r.rc == 1
    # with the file and line of the key (conf_key_where)
    assert re.search(r"sbatch: error: \S+/slurm\.conf:\d+: CliFilterPlugins: "
                     r"cannot create cli_filter context for cli_filter/nosuch",
                     r.err), r.err
    assert r.err.endswith("sbatch: error: cli_filter plugin terminated "
                          "with error\n"), r.err


def test_user_defaults(fc):
    set_filters(fc, "user_defaults")
    try:
        defaults_file(["time = 11", "sbatch:partition = p2",
                       "*:comment = fromdefaults", "# qos = x",
                       "srun:*:job-name = notsbatch",
                       "sbatch:%s:job-name = mine" % fc.name,
                       "bogusopt = 1"])
        r = submit(fc, [])
        assert r.rc == 0, r
        # sbatch:partition names a cluster "sbatch": not ours
        assert job_field(fc, r, "%l %P %k %j") == \
            "11:00 debug fromdefaults mine"
        # the command line and #SBATCH lines override
        script = fc.write_file(U, os.path.join(fc.workdir(U), "s.sh"),
                               "#!/bin/sh\n#SBATCH -t 20\ntrue\n")
        r = submit(fc, ["--comment=cli"], script=script)
        assert r.rc == 0, r
        assert job_field(fc, r, "%l %k") == "20:00 cli"
        defaults_file(["oracle:sbatch:partition = p2", "time = abc",
                       "comment = ok"])
        r = submit(fc, [])
        assert r.rc == 0, r
        assert 'sbatch: error: Unknown command "oracle" in ' \
            '~/.slurm/defaults, line 1' in r.err
        assert "sbatch: error: Invalid --time specification" in r.err
        assert job_field(fc, r, "%P %k") == "debug ok"
    finally:
        defaults_file(None)


def test_lua(fc):
    path = os.path.join(os.path.dirname(fc.conf), "cli_filter.lua")
    set_filters(fc, "lua")
    if os.path.exists(path):
        os.unlink(path)
    r = submit(fc, [])
    assert r.rc == 1
    assert "sbatch: error: cli_filter/lua: Unable to stat %s: No such file " \
        "or directory" % path in r.err
    with open(path, "w") as f:
        f.write(LUA)
    os.chmod(path, 0o644)
    r = submit(fc, [])
    assert r.rc == 0, r
    assert job_field(fc, r, "%l") == "13:00"
    assert "sbatch: lua: pre type=sbatch time=13 comment=nil" in r.err
    jid = r.out.split()[-1]
    assert 'sbatch: lua: post job=%s step=%d stored={"hold":"set",' \
        % (jid, 0xfffffffe) in r.err, r.err
    r = submit(fc, ["--comment=chg", "-t", "3"])
    assert r.rc == 0, r
    assert job_field(fc, r, "%P %l") == "p2 3:00"
    before = fc.all_job_states()
    for bad, said in (("bad", "sbatch: error: lua: refusing: bad"),
                      ("raise", "oops")):
        r = submit(fc, ["--comment=%s" % bad])
        assert r.rc == 1, r
        assert said in r.err
        assert r.err.endswith("sbatch: error: cli_filter plugin terminated "
                              "with error\n"), r.err
    assert fc.all_job_states() == before
    # srun takes the same filter
    r = fc.run(["srun", "-t", "2", "--comment=bad", "true"], user=U)
    assert r.rc == 1
    assert "srun: error: cli_filter plugin terminated with error" in r.err
    r = fc.run(["srun", "-t", "2", "true"], user=U)
    assert r.rc == 0, r
    assert "srun: lua: pre type=srun time=2 comment=nil" in r.err
    assert "srun: lua: post job=" in r.err and " step=0 stored=" in r.err
    # and salloc
    r = fc.run(["salloc", "--comment=bad", "true"], user=U)
    assert r.rc == 1
    assert "salloc: error: cli_filter plugin terminated with error" in r.err
    r = fc.run(["salloc", "true"], user=U)
    assert r.rc == 0, r
    assert "salloc: lua: pre type=salloc time=13 comment=nil" in r.err
    assert " step=%d stored=" % 0xfffffffe in r.err
