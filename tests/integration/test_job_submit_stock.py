"""The job_submit plugins Slurm ships, built into slurmctld
(JobSubmitPlugins=require_timelimit,throttle,all_partitions,logging) as
a user meets them; the expected texts are Slurm 22.05's, observed with
the same plugins and partitions."""

import re

import pytest

U = "sluice_u1"
CONF = "\n".join([
    "JobSubmitPlugins=require_timelimit,throttle,all_partitions,logging",
    "SchedulerParameters=jobs_per_user_per_hour=2",
    "PartitionName=p2 Nodes=n1",
    "PartitionName=p3 Nodes=n1 State=DRAIN",
    "PartitionName=p4 Nodes=n1 State=DOWN Hidden=YES",
])
FAILED = "sbatch: error: Batch job submission failed: %s\n"


@pytest.fixture(scope="module")
def sc(users):
    import conftest
    c = conftest._start(tag="jsstock", nodes=1, extra_conf=CONF)
    yield c
    conftest._stop(c)


def sbatch(c, args, user=U):
    return c.run(["sbatch", "-H", "-o", "/dev/null"] + args +
                 ["--wrap", "true"], user=user)


def test_stock_plugins(sc):
    before = sc.all_job_states()
    r = sbatch(sc, [])
    assert (r.rc, r.err) == (1, FAILED % "Time limit specification "
                             "required, but not provided"), r
    r = sbatch(sc, ["--time=UNLIMITED"])
    assert (r.rc, r.err) == (1, FAILED % "Requested time limit is invalid "
                             "(missing or exceeds some limit)"), r
    assert sc.all_job_states() == before
    assert "job_submit/require_timelimit: Missing time limit for job by " \
        "uid:" in sc.log_text()
    # all_partitions: every partition taking submissions, in slurm.conf
    # order (the fixture's debug partition is written last)
    jids = []
    for _ in range(2):
        r = sbatch(sc, ["-t", "5"])
        assert r.rc == 0, r
        jids.append(re.search(r"(\d+)", r.out).group(1))
    r = sc.run(["squeue", "-h", "-j", jids[0], "-o", "%P"])
    assert r.out.strip() == "p2,p4,debug"
    assert re.search(r"job_submit/logging: Job submit request: account:"
                     r"\(null\) begin_time:0 dependency:\(null\) name:wrap "
                     r"partition:p2,p4,debug qos:\(null\) submit_uid:\d+ "
                     r"time_limit:5 user_id:\d+", sc.log_text())
    r = sc.run(["squeue", "-h", "-j", jids[1], "-o", "%P"])
    assert r.out.strip() == "p2,p4,debug"
    # throttle: the third within the hour is refused with its message
    r = sbatch(sc, ["-t", "5"])
    assert (r.rc, r.err) == (1, "sbatch: error: Reached jobs per hour "
                             "limit\n" + FAILED % "Job violates "
                             "accounting/QOS policy (job submit limit, "
                             "user's size and/or time limits)"), r
    # another user has a count of their own; a partition given is kept
    r = sbatch(sc, ["-t", "5", "-p", "p2"], user="sluice_u2")
    assert r.rc == 0, r
    jid = re.search(r"(\d+)", r.out).group(1)
    assert sc.run(["squeue", "-h", "-j", jid, "-o", "%P"]).out.strip() == "p2"
    # require_timelimit at update
    r = sc.run(["scontrol", "update", "JobId=%s" % jids[0],
                "TimeLimit=UNLIMITED"])
    assert r.rc == 1
    assert "Requested time limit is invalid" in r.err
    assert sc.run(["scontrol", "update", "JobId=%s" % jids[0],
                   "TimeLimit=7"]).rc == 0
    assert re.search(r"job_submit/logging: Job modify request: .* job_id:%s "
                     r".*time_limit:7" % jids[0], sc.log_text())
