"""The cluster the heterogeneous job tests share (test_hetjob.py,
test_hetstep.py, test_hetstep_mpi.py): 2 nodes of 2 CPUs, a backfill pass
every second (het jobs start there), with slurmdbd on MariaDB where those
are installed (c.acct is then the mariadb.AcctEnv, else None).

    @pytest.fixture(scope="module")
    def hc(users):
        yield from het_cluster.run("hetmpi")
"""

import cluster as cl
import mariadb

SCHED = "SchedulerParameters=bf_interval=1,sched_min_interval=0"


def run(tag):
    """Start the cluster, yield it, stop it (a fixture's body)."""
    if mariadb.missing_tools():
        c = cl.Cluster(nodes=2, cpus=2, tag=tag, extra_conf=SCHED)
        c.acct = None
        try:
            c.start()
            yield c
        finally:
            c.stop()
            if not c.failed:
                c.cleanup()
        return
    e = mariadb.AcctEnv(tag=tag, nodes=2)
    e.c.extra_conf += "\n" + SCHED
    e.c.acct = e
    try:
        e.start()
        e.start_cluster()
    except BaseException:
        e.stop()
        raise
    yield e.c
    e.finish()
