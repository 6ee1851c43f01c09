"""The web view's job page draws a profiled job's usage (issue 26): with
AcctGatherProfileType=acct_gather_profile/slurmdbd, the page of a job
submitted with --profile=task shows CPU and memory charts from
/sluice/v1/job/{id}/profile; an unprofiled job's page and another user's
view of the profiled one show none.  Debian's chromium, headless, through
python3-selenium (test_web.py's helpers), against test_sdk.py's cluster
(slurmdbd) with a second slurmrestd serving build/web under /ui/.
"""
import os
import shutil

import pytest

import cluster as cl
from jwt_util import token_of
from test_sdk import U, env  # noqa: F401  (env: the module fixture)
from test_sdk_profile import U2, need_acct, submit_grow, wait_samples
from test_web import (browser, exists, login, severe, text_of,  # noqa: F401
                      wait, web_dir)


@pytest.fixture(scope="module")
def ui(env):
    need_acct(env)
    ui = os.path.join(env.c.dir, "ui")
    shutil.copytree(web_dir(), ui)
    for root, dirs, files in os.walk(ui):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    os.chmod(env.c.dir, 0o755)
    port = cl.free_ports(1)[0]
    env.c.start_restd("nobody", ["127.0.0.1:%d" % port],
                      args=["-a", "rest_auth/jwt", "--ui-dir", ui],
                      name="slurmrestd-ui")
    return "127.0.0.1:%d" % port


def test_job_page_profile_charts(env, ui, browser):
    b = browser
    job = submit_grow(env, "--profile=task", "--acctg-freq=task=1")
    plain = submit_grow(env)
    env.c.wait_done(job, timeout=90)
    env.c.wait_done(plain, timeout=90)
    rows = wait_samples(env, job, 5, steps={"0", "batch"})
    assert len(rows) >= 5, rows

    login(b, ui, token_of(env.c, U), "job/%d" % job)
    wait(b, lambda d: exists(d, "#profile-cpu") and exists(d, "#profile-mem"),
         what="the profile charts")
    assert text_of(b, "#profile-info").startswith("%d samples" % len(rows))
    # both charts were drawn: their canvases have a size and ink
    for css in ("#profile-cpu", "#profile-mem"):
        assert b.execute_script(
            "const c = document.querySelector(arguments[0]);"
            "if (!c.width || !c.height) return false;"
            "const d = c.getContext('2d').getImageData(0, 0, c.width,"
            " c.height).data;"
            "for (let i = 3; i < d.length; i += 4) if (d[i]) return true;"
            "return false;", css), css

    # an unprofiled job: no profile section
    b.get("http://%s/ui/#/job/%d" % (ui, plain))
    wait(b, lambda d: text_of(d, "#job-state") == "COMPLETED",
         what="the unprofiled job's page")
    wait(b, lambda d: exists(d, "#job-steps"), what="its steps")
    assert not exists(b, "#profile-cpu")

    # another user: the job's page, but no samples, so no charts
    login(b, ui, token_of(env.c, U2), "job/%d" % job)
    wait(b, lambda d: text_of(d, "#job-state") == "COMPLETED",
         what="the job page as another user")
    wait(b, lambda d: exists(d, "#job-steps"), what="its steps")
    assert not exists(b, "#profile-cpu")
    # (the output tail is refused to U2: the job page says so; the
    # profile answers an empty list, no error)
    errs = [e for e in severe(b) if "/output?" not in e["message"]]
    assert not errs, errs
