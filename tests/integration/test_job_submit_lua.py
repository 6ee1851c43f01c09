"""JobSubmitPlugins=lua: the site's job_submit.lua next to slurm.conf.

The script below is what sites write: it refuses jobs without --time
(its message reaches sbatch's user), gives a default account, rewrites a
partition, and logs.  A changed script is picked up at the next call; a
broken new version is logged and the previous one kept.
"""

import os
import textwrap
import time

import pytest

SCRIPT = textwrap.dedent("""\
    function slurm_job_submit(job_desc, part_list, submit_uid)
        if job_desc.time_limit == slurm.NO_VAL then
            slurm.log_user("Please specify a time limit (--time)")
            slurm.log_info("refused job %s of uid %u: no time limit",
                           tostring(job_desc.name), submit_uid)
            return slurm.ESLURM_INVALID_TIME_LIMIT
        end
        if job_desc.account == nil then
            job_desc.account = "general"
            slurm.log_user("Using the default account general")
        end
        if job_desc.comment == "reject-me" then
            return slurm.ERROR
        end
        if job_desc.comment == "mem" then
            job_desc.min_mem_per_node = 123
        end
        if job_desc.comment == "version" then
            -- the job view's client_version: shown, and read-only
            local set = pcall(function() job_desc.client_version = 1 end)
            job_desc.comment = string.format("client:%x:%s",
                                             job_desc.client_version,
                                             tostring(set))
        end
        if part_list["debug"] == nil or part_list["debug"].flag_default ~= 1 then
            return slurm.ERROR
        end
        return slurm.SUCCESS
    end

    function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
        return slurm.SUCCESS
    end
    """)


@pytest.fixture(scope="module")
def lua_cluster(users):
    import cluster as cl
    import conftest
    c = cl.Cluster(tag="jslua", extra_conf="JobSubmitPlugins=lua")
    conftest._ACTIVE.append(c)
    try:
        write_script(c, SCRIPT)
        c.start()
    except BaseException:
        conftest._stop(c, keep=True)
        raise
    yield c
    conftest._stop(c)


def write_script(c, text):
    path = os.path.join(os.path.dirname(c.conf), "job_submit.lua")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o644)
    # A new mtime even within the same clock tick.
    t = time.time() + 1 + write_script.n
    write_script.n += 1
    os.utime(path, (t, t))
    return path


write_script.n = 0


@pytest.fixture(autouse=True)
def _script(lua_cluster):
    write_script(lua_cluster, SCRIPT)


def test_refused_without_time_with_message(lua_cluster):
    c = lua_cluster
    off = c.log_size()
    r = c.run(["sbatch", "-J", "notime", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 1, r
    assert r.out == ""
    assert r.err.splitlines() == [
        "sbatch: error: Please specify a time limit (--time)",
        "sbatch: error: Batch job submission failed: Requested time limit is "
        "invalid (missing or exceeds some limit)",
    ], r
    uid = c.run(["id", "-u"], user="sluice_u1").out.strip()
    assert "job_submit.lua: refused job notime of uid %s: no time limit" % uid \
        in c.log_since(off)
    assert c.run(["squeue", "-h"]).out == ""


def test_default_account_set_and_message_shown(lua_cluster):
    c = lua_cluster
    r = c.run(["sbatch", "-t", "5", "--hold", "--wrap", "true"], user="sluice_u1")
    assert r.rc == 0, r
    assert r.err == "sbatch: Using the default account general\n", r
    jid = r.out.split()[-1]
    assert c.show_job(jid)["Account"] == "general"
    r = c.run(["sbatch", "-t", "5", "-A", "physics", "--hold", "--wrap", "true"],
              user="sluice_u1")
    assert (r.rc, r.err) == (0, ""), r
    assert c.show_job(r.out.split()[-1])["Account"] == "physics"
    r = c.run(["sbatch", "-t", "5", "--comment", "mem", "--hold", "--wrap", "true"],
              user="sluice_u1")
    assert r.rc == 0, r
    assert "MinMemoryNode=123M" in c.run(["scontrol", "show", "job",
                                          r.out.split()[-1]]).out


def test_view_shows_client_version_read_only(lua_cluster):
    c = lua_cluster
    r = c.run(["sbatch", "-t", "5", "--comment", "version", "--hold",
               "--wrap", "true"], user="sluice_u1")
    assert r.rc == 0, r
    # sbatch speaks this build's protocol version (25.05 is 0x2505)
    ver = c.run(["sbatch", "-V"]).out.split()[-1]
    want = "client:%s%s:false" % tuple(ver.split(".")[:2])
    assert c.show_job(r.out.split()[-1])["Comment"] == want


def test_plain_error_is_unspecified(lua_cluster):
    c = lua_cluster
    r = c.run(["sbatch", "-t", "5", "--comment", "reject-me", "--wrap", "true"],
              user="sluice_u1")
    assert r.rc == 1
    assert r.err.splitlines()[-1] == \
        "sbatch: error: Batch job submission failed: Unspecified error", r


def test_changed_script_reloaded_broken_one_ignored(lua_cluster):
    c = lua_cluster
    write_script(c, SCRIPT.replace("Please specify a time limit (--time)",
                                   "Time limit required"))
    r = c.run(["sbatch", "--wrap", "true"], user="sluice_u2")
    assert "sbatch: error: Time limit required" in r.err, r
    off = c.log_size()
    write_script(c, "function slurm_job_submit(  -- syntax error\n")
    r = c.run(["sbatch", "--wrap", "true"], user="sluice_u2")
    assert "sbatch: error: Time limit required" in r.err, r
    assert "keeping the previous script" in c.log_since(off)
    r = c.run(["sbatch", "-t", "1", "--hold", "--wrap", "true"], user="sluice_u2")
    assert r.rc == 0, r


def test_missing_script_stops_controller(users):
    # The fixture's cluster has no job_submit.lua: slurmctld must refuse to
    # start, naming the file, rather than run without the site's policy.
    import cluster as cl
    import conftest
    c = cl.Cluster(tag="jslua-missing", extra_conf="JobSubmitPlugins=lua")
    conftest._ACTIVE.append(c)
    try:
        with pytest.raises(cl.ClusterError):
            c.start()
        text = c.log_text()
        assert "job_submit.lua" in text and "No such file" in text, text[-2000:]
    finally:
        conftest._stop(c, keep=False)


MODIFY = SCRIPT[:SCRIPT.index("function slurm_job_modify")] + textwrap.dedent("""\
    function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
        if job_desc.time_limit ~= slurm.NO_VAL and job_desc.time_limit > 60 then
            slurm.log_user("Jobs of %s may run 60 minutes at most",
                           job_rec.account)
            return slurm.ESLURM_INVALID_TIME_LIMIT
        end
        if job_desc.comment ~= nil then
            job_desc.comment = "checked:" .. job_desc.comment
        end
        return slurm.SUCCESS
    end
    """)


def test_modify_sees_changes_and_refuses(lua_cluster):
    c = lua_cluster
    write_script(c, MODIFY)
    r = c.run(["sbatch", "-t", "5", "--hold", "--wrap", "true"], user="sluice_u1")
    jid = r.out.split()[-1]
    r = c.run(["scontrol", "update", "JobId=%s" % jid, "Comment=hello"],
              user="sluice_u1")
    assert r.rc == 0, r
    assert c.show_job(jid)["Comment"] == "checked:hello"
    r = c.run(["scontrol", "update", "JobId=%s" % jid, "TimeLimit=120"])
    assert r.rc == 1, r
    assert "Jobs of general may run 60 minutes at most" in r.err, r
    assert c.show_job(jid)["TimeLimit"] == "00:05:00"
