"""DebugFlags and scontrol setdebug / setdebugflags (issue 27).

A flag that is set makes the daemons log "FLAG: ..." lines at info level
about its subsystem; a flag of a subsystem Sluice lacks is reported once
as having no effect; `scontrol setdebug` / `setdebugflags` change the
running controller (administrators only) until `scontrol reconfigure`
restores the config's.  Words, errors and exit codes are Slurm's.
"""

import re
import time

import pytest

from conftest import _start, _stop
import cluster as cl

U = "sluice_u1"
FLAGS = "Backfill,Priority,Protocol,Reservation,SelectType,Steps,TraceJobs"


@pytest.fixture(scope="module")
def c(users):
    c = _start(tag="dbgflags", nodes=2, debug="info",
               extra_conf="DebugFlags=%s,BurstBuffer\n"
               "PriorityType=priority/multifactor\n"
               "PriorityWeightAge=1000\n" % FLAGS)
    yield c
    _stop(c)


def _conf(c, key):
    r = c.run(["scontrol", "show", "config"])
    assert r.rc == 0, r.err
    m = re.search(r"(?m)^%s\s+= (.*)$" % key, r.out)
    return m.group(1) if m else None


def _wait_log(c, start, pattern, timeout=20):
    cl.wait_for(lambda: re.search(pattern, c.log_since(start)),
                timeout=timeout, what=pattern)


def test_show_config_lists_the_flags(c):
    # BurstBuffer is accepted but Sluice has no burst buffers: not in force
    # in Slurm's order, whatever the order in slurm.conf
    assert _conf(c, "DebugFlags") == ("Backfill,BurstBuffer,Priority,"
                                      "Protocol,Reservation,SelectType,"
                                      "Steps,TraceJobs")


def test_flag_without_subsystem_is_warned_once(c):
    log = c.log_text()
    assert len(re.findall(r"DebugFlags option BurstBuffer has no effect",
                          log)) == 1, log[-3000:]


def test_flags_log_their_subsystem(c):
    start = c.log_size()
    r = c.run(["srun", "-N2", "true"], user=U)
    assert r.rc == 0, r.err
    jid = c.sbatch(["--wrap", "true"], user=U)
    assert c.wait_done(jid) == "COMPLETED"
    _wait_log(c, start, r"STEPS: step_mgr_rpc_create: StepId=\d+\.0 created")
    log = c.log_since(start)
    assert re.search(r"PROTOCOL: rpc_dispatch: received opcode "
                     r"REQUEST_SUBMIT_BATCH_JOB from \S+ uid \d+", log), log
    assert re.search(r"TRACE_JOBS: job_mgr_start: enter JobId=%d" % jid, log)
    assert re.search(r"TRACE_JOBS: job_mgr_end: JobId=%d RUNNING -> "
                     r"COMPLETED" % jid, log), log
    assert re.search(r"PRIO: priority_compute: JobId=%d Age=" % jid, log)


def test_backfill_flag_logs_the_pass(c):
    start = c.log_size()
    # the first job takes every CPU for a while: the second is planned
    j1 = c.sbatch(["-N2", "--exclusive", "-t", "2", "--wrap", "sleep 30"],
                  user=U)
    j2 = c.sbatch(["-N1", "-t", "1", "--wrap", "true"], user=U)
    _wait_log(c, start, r"BACKFILL: _bf_one: test for JobId=%d" % j2,
              timeout=60)
    assert "BACKFILL: _bf_begin: beginning with" in c.log_since(start)
    c.run(["scancel", str(j1), str(j2)])


def test_reservation_and_select_flags(c):
    r = c.run(["scontrol", "create", "reservation", "ReservationName=dbg",
               "Users=root", "Nodes=n1", "StartTime=now", "Duration=10"])
    assert r.rc == 0, r.err
    start = c.log_size()
    jid = c.sbatch(["-N1", "--wrap", "true"], user=U)
    assert c.wait_done(jid) == "COMPLETED"
    r = c.run(["sbatch", "--reservation=dbg", "--wrap", "true"], user=U)
    assert r.rc != 0
    log = c.log_since(start)
    assert re.search(r"RESERVATION: resv_mgr_job_nodes: JobId=%d may not "
                     r"use the nodes of reservation dbg" % jid, log), log
    assert re.search(r"RESERVATION: resv_mgr_job_check: uid=\d+ "
                     r"account=\S* may not use reservation dbg", log), log
    assert re.search(r"SELECT_TYPE: job_res_select: JobId=%d partition "
                     r"\S+: fits" % jid, log), log
    c.run(["scontrol", "delete", "reservation=dbg"])


def test_setdebugflags_changes_the_running_controller(c):
    r = c.run(["scontrol", "setdebugflags", "-Steps"])
    assert (r.rc, r.out, r.err) == (0, "", "")
    assert "Steps" not in _conf(c, "DebugFlags")
    assert ("Set DebugFlags to Backfill,BurstBuffer,Priority,Protocol,"
            "Reservation,SelectType,TraceJobs") in c.log_text()
    start = c.log_size()
    assert c.run(["srun", "true"], user=U).rc == 0
    time.sleep(1)
    assert "STEPS:" not in c.log_since(start)
    r = c.run(["scontrol", "setdebugflags", "+Route,Agent"])
    assert r.rc == 0, r.err
    assert _conf(c, "DebugFlags") == ("Agent,Backfill,BurstBuffer,Priority,"
                                      "Protocol,Reservation,Route,"
                                      "SelectType,TraceJobs")
    start = c.log_size()
    assert c.run(["srun", "-N2", "true"], user=U).rc == 0
    _wait_log(c, start, r"ROUTE: fwd_send: \S+ to \d+ nodes")
    _wait_log(c, start, r"AGENT: agent_send_tree: \S+ to \d+ nodes queued")
    # reconfigure: the config's flags again
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    assert "Route" not in _conf(c, "DebugFlags")
    assert "Steps" in _conf(c, "DebugFlags")


def test_setdebug_changes_the_level_until_reconfigure(c):
    assert _conf(c, "SlurmctldDebug") == "info"
    r = c.run(["scontrol", "setdebug", "debug2"])
    assert (r.rc, r.out, r.err) == (0, "", "")
    assert _conf(c, "SlurmctldDebug") == "debug2"
    assert "Set debug level to 'debug2'" in c.log_text()
    start = c.log_size()
    c.run(["squeue"])
    _wait_log(c, start, r"debug2: Processing RPC: REQUEST_JOB_INFO")
    r = c.run(["scontrol", "setdebug", "5"])
    assert r.rc == 0 and _conf(c, "SlurmctldDebug") == "debug"
    assert c.run(["scontrol", "reconfigure"]).rc == 0
    assert _conf(c, "SlurmctldDebug") == "info"
    start = c.log_size()
    c.run(["squeue"])
    time.sleep(1)
    assert "debug2:" not in c.log_since(start)


@pytest.mark.parametrize("argv,err", [
    (["setdebug"], "too few arguments for keyword:setdebug\n"),
    (["setdebug", "info", "x"], "too many arguments for keyword:setdebug\n"),
    (["setdebug", "bogus"], "invalid debug level: bogus\n"),
    (["setdebug", "12"], "invalid debug level: 12\n"),
    (["setdebugflags"], "too few arguments for keyword:setdebugflags\n"),
    (["setdebugflags", "+Steps", "-Route"],
     "too many arguments for keyword:setdebugflags\n"),
    (["setdebugflags", "Backfill"],
     "invalid debug flag: Backfill\nUsage: setdebugflags [+|-]NAME\n"),
    (["setdebugflags", "+Backfill,Bogus"],
     "scontrol: error: Invalid DebugFlag: Bogus\n"
     "invalid debug flag: +Backfill,Bogus\n"),
])
def test_bad_arguments_are_refused(c, argv, err):
    before = _conf(c, "DebugFlags"), _conf(c, "SlurmctldDebug")
    r = c.run(["scontrol"] + argv)
    assert (r.rc, r.out, r.err) == (1, "", err)
    assert (_conf(c, "DebugFlags"), _conf(c, "SlurmctldDebug")) == before


def test_users_may_not_change_them(c):
    before = _conf(c, "DebugFlags"), _conf(c, "SlurmctldDebug")
    r = c.run(["scontrol", "setdebug", "debug5"], user=U)
    assert (r.rc, r.err) == (1, "slurm_set_debug_level error: Permission denied\n")
    r = c.run(["scontrol", "setdebugflags", "-Backfill"], user=U)
    assert (r.rc, r.err) == (1, "slurm_set_debug_flags error: Permission denied\n")
    assert (_conf(c, "DebugFlags"), _conf(c, "SlurmctldDebug")) == before


def test_gres_flag_logs_the_gpus_of_a_job(users):
    g = _start(tag="dbggres", nodes=1, cpus=2, debug="info",
               extra_conf="GresTypes=gpu\nDebugFlags=Gres\n"
               "SlurmdParameters=config_overrides\n",
               node_extra={"n1": "Gres=gpu:2"})
    try:
        dev = g.dir + "/dev"
        cl.os.makedirs(dev, exist_ok=True)
        for i in range(2):
            open("%s/nvidia%d" % (dev, i), "w").close()
        g.write_file(None, g.dir + "/etc/gres.conf",
                     "Name=gpu File=%s/nvidia[0-1]\n" % dev)
        jid = g.sbatch(["--gres=gpu:1", "--wrap", "true"], user=U)
        g.wait_done(jid)
        log = g.log_text()
        assert re.search(r"GRES: _parse_gpus: JobId=%d gres/gpu "
                         r"per_node:1 " % jid, log), log[-3000:]
        assert re.search(r"GRES: job_res_start: JobId=%d node n1 gres/gpu "
                         r"IDX:0x\d" % jid, log), log[-3000:]
    finally:
        _stop(g)


def test_license_dependency_trigger_flags(users):
    c = _start(tag="dbgflags2", nodes=1, debug="info",
               extra_conf="Licenses=matlab:1\n"
               "DebugFlags=License,Dependency,Triggers\n")
    try:
        start = c.log_size()
        j1 = c.sbatch(["-L", "matlab", "-o", "/dev/null", "--wrap",
                       "sleep 3"], user=U)
        c.wait_state(j1, ["RUNNING"])
        j2 = c.sbatch(["-L", "matlab", "-o", "/dev/null", "--wrap", "true"],
                      user=U)
        j3 = c.sbatch(["-d", "afterok:%d" % j1, "-o", "/dev/null",
                       "--wrap", "true"], user=U)
        r = c.run(["strigger", "--set", "--jobid=%d" % j1, "--fini",
                   "--program=/bin/true"])
        assert r.rc == 0, r.err
        for j in (j1, j2, j3):
            assert c.wait_done(j) == "COMPLETED"
        _wait_log(c, start, r"TRIGGERS: _tr_fire: trigger \d+ \(%d "
                  r"/bin/true\) event seen for %d" % (j1, j1))
        log = c.log_since(start)
        for pat in (r"LICENSE: lic_mgr_job_get: JobId=%d took licenses "
                    r"matlab:1 \(asked matlab(:1)?\)" % j1,
                    r"LICENSE: lic_mgr_job_test: JobId=%d waits for "
                    r"licenses matlab(:1)?$" % j2,
                    r"LICENSE: lic_mgr_job_return: JobId=%d returned "
                    r"licenses matlab:1" % j1,
                    r"DEPENDENCY: _reason_once: JobId=%d dependency "
                    r"afterok:%d\S* satisfied" % (j3, j1)):
            assert re.search(pat, log, re.M), (pat, [
                line for line in log.splitlines() if "LICENSE" in line or
                "DEPENDENCY" in line])
        # these flags are in force: none is reported as having no effect
        assert "DebugFlags option" not in c.log_text()
    finally:
        _stop(c)


def test_node_side_and_jobcomp_flags(users):
    c = _start(tag="dbgflags3", nodes=1, debug="info",
               extra_conf="TaskPlugin=task/affinity\nProlog=/bin/true\n"
               "JobCompType=jobcomp/filetxt\nJobCompLoc=/dev/null\n"
               "DebugFlags=CPU_Bind,Script,JobComp\n")
    try:
        start = c.log_size()
        wd = c.workdir(U)
        r = c.run(["srun", "-n2", "--cpu-bind=cores", "true"], user=U,
                  cwd=wd)
        assert r.rc == 0, r.err
        jid = int(c.run(["squeue", "-h", "-t", "all", "-o", "%i"]).out
                  .split()[-1])
        _wait_log(c, start, r"JOBCOMP: _job_end_saved: JobId=%d state 3 "
                  r"exit 0 recorded" % jid)
        cl.wait_for(lambda: "CPU_BIND: affinity_plan" in
                    open(c.slurmd_log("n1")).read(), timeout=20,
                    what="CPU_BIND line")
        node = open(c.slurmd_log("n1")).read()
        for pat in (r"CPU_BIND: affinity_plan: n1 task 0 of 2: MASK mask "
                    r"0x[0-9a-f]+",
                    r"CPU_BIND: affinity_plan: n1 task 1 of 2: MASK mask "
                    r"0x[0-9a-f]+",
                    r"SCRIPT: script_spawn: prolog_slurmd /bin/true started "
                    r"for JobId=%d, pid \d+" % jid):
            assert re.search(pat, node), (pat, node[-3000:])
        assert "DebugFlags option" not in c.log_text()
    finally:
        _stop(c)
