"""GroupUpdateTime: how long slurmctld keeps a user's group list (which it
sends with each batch launch) before it reads the group database again;
0 keeps it until a reconfigure.  A group the user joined shows in `id -G`
inside the job only once the cached list has expired."""

import grp
import os
import subprocess
import time

import pytest

U = "sluice_u1"
GROUP = "sluice_gut"


@pytest.fixture
def group():
    subprocess.run(["groupdel", GROUP], capture_output=True)
    subprocess.run(["groupadd", GROUP], check=True)
    yield grp.getgrnam(GROUP).gr_gid
    subprocess.run(["groupdel", GROUP], capture_output=True)


def groups_in_job(c):
    out = os.path.join(c.workdir(U), "groups_%d.txt" % time.time_ns())
    jid = c.sbatch(["-o", out, "--wrap", "id -G"], user=U,
                   cwd=c.workdir(U))
    c.wait_done(jid)
    with open(out) as f:
        return {int(g) for g in f.read().split()}


def test_group_update_time(new_cluster, group):
    c = new_cluster(nodes=1, extra_conf="GroupUpdateTime=0\n")
    assert group not in groups_in_job(c)          # the list is cached
    subprocess.run(["gpasswd", "-a", U, GROUP], check=True,
                   capture_output=True)
    time.sleep(3)
    # 0: never read again on its own
    assert group not in groups_in_job(c)
    # 2 s: after a reconfigure (which drops the cache) ...
    c.extra_conf = "GroupUpdateTime=2\n"
    c.write_conf()
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    assert group in groups_in_job(c)
    # ... a change is seen once the 2 s are over
    subprocess.run(["gpasswd", "-d", U, GROUP], check=True,
                   capture_output=True)
    time.sleep(3)
    assert group not in groups_in_job(c)
