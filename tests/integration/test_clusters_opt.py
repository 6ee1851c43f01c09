"""-M/--clusters and sacct -L, as Slurm's (checked against Slurm 22.05):
Sluice's commands reach their own controller only, so -M names this
cluster (ClusterName) or "all"; any other name is refused with Slurm's
two lines ("No cluster 'x' known by database." / "'x' can't be reached
now, ...") and exit 1 — it was accepted and answered for the local
cluster.  sacct's -M is a filter over slurmdbd's records (several
clusters may share one slurmdbd): by default this cluster's jobs, -M the
named ones, -L every cluster's."""

import time

import pytest

import mariadb

U1 = "sluice_u1"


def refused(prog, name="other"):
    return ("%s: error: No cluster '%s' known by database.\n"
            "%s: error: '%s' can't be reached now, or it is an invalid "
            "entry for --cluster.  Use 'sacctmgr list clusters' to see "
            "available clusters.\n" % (prog, name, prog, name))


@pytest.mark.parametrize("argv", [
    ["squeue", "-M", "other"], ["sinfo", "-M", "other"],
    ["scancel", "-M", "other", "5"], ["sprio", "-M", "other"],
    ["sdiag", "-M", "other"], ["sshare", "-M", "other"],
    ["squeue", "--clusters=sluice,other"],
    ["sbatch", "-M", "other", "--wrap", "true"],
])
def test_other_cluster_refused(cluster, argv):
    r = cluster.run(argv, user=U1)
    assert r.rc == 1 and r.out == "" and r.err == refused(argv[0]), r


def test_own_cluster_and_all(cluster):
    c = cluster
    j = c.sbatch(["-H", "--wrap", "true"], user=U1)
    try:
        for name in ("sluice", "all"):
            r = c.run(["squeue", "-M", name, "-h", "-o", "%i"], user=U1)
            assert r.rc == 0 and r.out == "CLUSTER: sluice\n%d\n" % j, r
            r = c.run(["sinfo", "-M", name, "-h", "-o", "%P"], user=U1)
            assert r.rc == 0 and r.out == "CLUSTER: sluice\ndebug*\n", r
        r = c.run(["scancel", "-M", "sluice", str(j)], user=U1)
        assert r.rc == 0, r
        assert c.wait_done(j) == "CANCELLED"
    finally:
        c.run(["scancel", str(j)])


@pytest.mark.skipif(bool(mariadb.missing_tools()),
                    reason="MariaDB server not installed")
def test_sacct_clusters_filter():
    e = mariadb.AcctEnv(tag="clusters", nodes=1)
    try:
        e.start()
        e.sacctmgr("-i", "add", "cluster", "other")
        e.start_cluster()
        c = e.c
        j = c.sbatch(["-o", "/dev/null", "--wrap", "true"], user=U1)
        assert c.wait_done(j) == "COMPLETED"

        def ids(*a):
            return e.sacct("-X", "-n", "-P", "-a", "-o", "JobID,Cluster",
                           *a).out.split()
        for _ in range(100):
            if ids():
                break
            time.sleep(0.2)
        assert ids() == ["%d|sluice" % j]
        # the same job as another cluster's record in the same slurmdbd
        # (the columns MariaDB computes itself, e.g. span_cls, take no
        # values)
        cols = e.db.sql(
            "SELECT GROUP_CONCAT(CONCAT('`', COLUMN_NAME, '`') "
            "ORDER BY ORDINAL_POSITION) "
            "FROM information_schema.COLUMNS WHERE TABLE_SCHEMA="
            "'slurm_acct_db' AND TABLE_NAME='job_table' AND "
            "EXTRA NOT LIKE '%GENERATED%'").stdout.strip()
        e.db.sql("CREATE TEMPORARY TABLE t AS SELECT %s FROM job_table "
                 "WHERE id_job=%d; UPDATE t SET job_db_inx=job_db_inx+"
                 "1000000, cluster='other', id_job=777; INSERT INTO "
                 "job_table (%s) SELECT * FROM t;" % (cols, j, cols),
                 db="slurm_acct_db")
        assert ids() == ["%d|sluice" % j]                  # this cluster
        assert ids("-M", "other") == ["777|other"]
        assert sorted(ids("-L")) == sorted(["%d|sluice" % j, "777|other"])
        assert sorted(ids("-M", "sluice,other")) == \
            sorted(["%d|sluice" % j, "777|other"])
        assert sorted(ids("-M", "all")) == \
            sorted(["%d|sluice" % j, "777|other"])
        assert ids("-M", "nosuch") == []
    finally:
        e.stop()
