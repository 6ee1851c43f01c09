#!/usr/bin/python3
"""Generate the format-2 state fixture (tests/unit/test_state_fmt.c).

Run once, as root, with a build of main at a34140f (the last commit that
wrote format 2: positional job records, snapshot version 2, JREC_JOB
payload version 1):

    SLUICE_BUILD_DIR=$PWD/build python3 tests/unit/data/state-fmt2/gen.py

It starts a 4-node cluster (ClusterName=sluice), makes a few jobs,
SIGKILLs the controller, starts it again (which writes a snapshot holding
them), makes more changes (these stay in the journal), SIGKILLs it again
and copies StateSaveLocation here as state/ (or to the directory given
as argument: tests/fuzz/corpus/fuzz_journal seeds of the current format
are made that way).  What is in it is listed in
EXPECTED below (test_state_fmt.c checks the same).
"""
import os
import shutil
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "integration"))
import cluster as cl  # noqa: E402

ENV = {"FIXTURE": "fmt2"}


def main():
    c = cl.Cluster(tag="fmt2", nodes=4)
    c.start()
    try:
        u = "sluice_u1"
        # --- before the snapshot
        done = c.sbatch(["-J", "done", "--wrap", "echo hi"], user=u, env=ENV)
        c.wait_done(done, 30)
        held = c.sbatch(["-J", "held", "--hold", "--comment", "fixture comment",
                         "-t", "7", "--wrap", "true"], user=u, env=ENV)
        run = c.sbatch(["-J", "runner", "-w", "n2", "--requeue",
                        "--wrap", "sleep 600"], user=u, env=ENV)
        c.wait_state(run, "RUNNING", 30)
        arr = c.sbatch(["-J", "arr", "--array", "1-3%1", "-w", "n3",
                        "--wrap", "sleep 600"], user=u, env=ENV)
        c.wait_state("%d_1" % arr, "RUNNING", 30)
        canc = c.sbatch(["-J", "canc", "--hold", "--wrap", "true"], user=u,
                        env=ENV)
        c.run(["scancel", str(canc)])
        c.run(["scontrol", "update", "nodename=n4", "state=drain",
               "reason=fixture drain"])
        time.sleep(1)
        c.kill_ctld(signal.SIGKILL)
        c.start_ctld()
        c.wait_ready(timeout=60, nodes=["n1"])
        # --- after the snapshot: journal only
        late = c.sbatch(["-J", "late", "--hold", "-N", "2", "--wrap", "true"],
                        user="sluice_u2", env=ENV)
        c.run(["scontrol", "release", str(held)])
        c.run(["scontrol", "hold", str(held)])
        c.run(["scontrol", "update", "nodename=n1", "state=drain",
               "reason=late drain"])
        time.sleep(1)
        c.kill_ctld(signal.SIGKILL)
        out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "state")
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(os.path.join(c.dir, "state"), out, symlinks=True)
        ids = "done=%d held=%d run=%d arr=%d canc=%d late=%d\n" % (
            done, held, run, arr, canc, late)
        if len(sys.argv) == 1:
            with open(os.path.join(HERE, "ids.txt"), "w") as f:
                f.write(ids)
        print(ids)
    finally:
        c.stop()
        c.cleanup()


if __name__ == "__main__":
    main()
