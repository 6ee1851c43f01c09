"""A private MariaDB server and a slurmdbd on loopback, for the
accounting tests.

MariaDB: its own datadir (mariadb-install-db), socket and TCP port on
127.0.0.1, run as the mysql user; the accounting user is created with a
password and granted the accounting database only (no
--skip-grant-tables).  Stopped by the PID we started.

AcctEnv: a cluster.Cluster used for its directory, munged, slurm.conf and
command runner (no slurmctld or slurmd are started), plus MariaDB and
slurmdbd with a slurmdbd.conf beside slurm.conf.

    env = AcctEnv(tag="sacctmgr")
    env.start()
    env.sacctmgr("-i", "add", "cluster", "sluice")
    env.restart_dbd()
    env.stop(); env.cleanup()
"""

import os
import pwd
import secrets
import shutil
import signal
import subprocess
import time

import cluster as cl


def _find(*names):
    for n in names:
        p = shutil.which(n) or next(
            (os.path.join(d, n) for d in ("/usr/sbin", "/usr/bin")
             if os.path.exists(os.path.join(d, n))), None)
        if p:
            return p
    return None


def missing_tools():
    """Names of what the accounting tests need and this host lacks."""
    need = {"mariadbd": _find("mariadbd", "mysqld"),
            "mariadb-install-db": _find("mariadb-install-db",
                                        "mysql_install_db"),
            "mariadb": _find("mariadb", "mysql"),
            "mariadb-admin": _find("mariadb-admin", "mysqladmin")}
    missing = [n for n, p in need.items() if not p]
    try:
        pwd.getpwnam("mysql")
    except KeyError:
        missing.append("user mysql")
    return missing


class MariaDB:
    """One private mariadbd under dir/."""

    def __init__(self, dir, port, user="slurm", db="slurm_acct_db",
                 buffer_pool="64M"):
        self.dir = dir
        self.buffer_pool = buffer_pool
        self.port = port
        self.user = user
        self.db = db
        self.password = secrets.token_hex(12)
        self.datadir = os.path.join(dir, "data")
        self.socket = os.path.join(dir, "mysqld.sock")
        self.log = os.path.join(dir, "mariadbd.log")
        # its own temporary directory: two bootstraps at once in the
        # shared /tmp collided ("Unknown table 'mysql.tmp_user_sys'")
        self.tmpdir = os.path.join(dir, "tmp")
        self.proc = None

    def _install(self):
        os.makedirs(self.datadir, exist_ok=True)
        os.makedirs(self.tmpdir, exist_ok=True)
        shutil.chown(self.dir, "mysql", "mysql")
        shutil.chown(self.datadir, "mysql", "mysql")
        shutil.chown(self.tmpdir, "mysql", "mysql")
        r = subprocess.run(
            [_find("mariadb-install-db", "mysql_install_db"), "--no-defaults",
             "--user=mysql", "--datadir=" + self.datadir,
             "--tmpdir=" + self.tmpdir,
             "--auth-root-authentication-method=socket", "--skip-test-db"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            raise cl.ClusterError("mariadb-install-db failed:\n" + r.stdout)

    def start(self):
        if not os.path.isdir(os.path.join(self.datadir, "mysql")):
            self._install()
        argv = [_find("mariadbd", "mysqld"), "--no-defaults", "--user=mysql",
                "--datadir=" + self.datadir, "--socket=" + self.socket,
                "--tmpdir=" + self.tmpdir,
                "--port=%d" % self.port, "--bind-address=127.0.0.1",
                "--skip-name-resolve", "--log-error=" + self.log,
                "--pid-file=" + os.path.join(self.dir, "mariadbd.pid"),
                "--innodb-buffer-pool-size=" + self.buffer_pool,
                "--innodb-log-file-size=16M", "--skip-log-bin"]
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        with cl._STARTED_LOCK:
            cl._STARTED.add(self.proc.pid)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                break
            if self.sql("SELECT 1", check=False).returncode == 0:
                self._grant()
                return
            time.sleep(0.2)
        raise cl.ClusterError("mariadbd did not come up: " + self.tail())

    def _grant(self):
        stmts = []
        for host in ("127.0.0.1", "localhost"):
            stmts += [
                "CREATE USER IF NOT EXISTS '%s'@'%s' IDENTIFIED BY '%s'"
                % (self.user, host, self.password),
                # a kept datadir (tests/perf/bench_acct.py): this run's
                "ALTER USER '%s'@'%s' IDENTIFIED BY '%s'"
                % (self.user, host, self.password),
                "GRANT ALL ON `%s`.* TO '%s'@'%s'" % (self.db, self.user,
                                                      host)]
        self.sql(";\n".join(stmts) + ";")

    def sql(self, text, check=True, db=None):
        """Run SQL as the server's root (socket auth); returns the
        CompletedProcess (stdout: tab-separated rows, no header)."""
        argv = [_find("mariadb", "mysql"), "--no-defaults",
                "--socket=" + self.socket, "-u", "root", "-N", "-B"]
        if db:
            argv.append(db)
        r = subprocess.run(argv, input=text, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if check and r.returncode != 0:
            raise cl.ClusterError("SQL failed: %s\n%s" % (text, r.stderr))
        return r

    def tail(self, n=2000):
        try:
            with open(self.log, errors="replace") as f:
                return f.read()[-n:]
        except OSError:
            return "(no log)"

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        with cl._STARTED_LOCK:
            cl._STARTED.discard(self.proc.pid)
        self.proc = None


class AcctEnv:
    """munged + MariaDB + slurmdbd, and a slurm.conf pointing at them."""

    def __init__(self, tag="acct", cluster_name="sluice", nodes=1,
                 dbd_extra="", **kw):
        self.dbd_extra = dbd_extra        # more slurmdbd.conf lines
        self.c = cl.Cluster(name=cluster_name, nodes=nodes, tag=tag, **kw)
        ports = cl.free_ports(3 + nodes)
        ctld_port, self.dbd_port, db_port = ports[:3]
        self.c.ctld_port = ctld_port
        self.c.node_ports = dict(zip(self.c.node_names, ports[3:]))
        self.c.extra_conf = (
            "AccountingStorageType=accounting_storage/slurmdbd\n"
            "AccountingStorageHost=127.0.0.1\n"
            "AccountingStoragePort=%d" % self.dbd_port)
        self.db = MariaDB(os.path.join(self.c.dir, "mysql"), db_port)
        self.dbd_conf = os.path.join(self.c.dir, "etc", "slurmdbd.conf")
        self.dbd_log = os.path.join(self.c.dir, "log", "slurmdbd.log")
        self.dbd = None
        self.dir = self.c.dir

    def dbd_bin(self):
        return os.path.join(os.path.dirname(self.c.bins["slurmctld"]),
                            "slurmdbd")

    def sacctmgr_bin(self):
        return self.c.bins["sacctmgr"]

    def write_dbd_conf(self):
        text = "\n".join([
            "# Generated by tests/integration/mariadb.py",
        ] + self.c.auth_lines(auth_key=os.path.join(self.c.dir, "etc", "slurm.key")
                              if self.c.auth == "slurm" else None) + [
            "DbdHost=localhost",
            "DbdAddr=127.0.0.1",
            "DbdPort=%d" % self.dbd_port,
            "SlurmUser=root",
            "DebugLevel=debug",
            "LogFile=%s" % self.dbd_log,
            "PidFile=%s" % os.path.join(self.dir, "run", "slurmdbd.pid"),
            "PluginDir=%s" % self.c.bins["plugindir"],
            "StorageType=accounting_storage/mysql",
            "StorageHost=127.0.0.1",
            "StoragePort=%d" % self.db.port,
            "StorageUser=%s" % self.db.user,
            "StoragePass=%s" % self.db.password,
            "StorageLoc=%s" % self.db.db,
        ] + ([self.dbd_extra] if self.dbd_extra else [])) + "\n"
        with open(self.dbd_conf, "w") as f:
            f.write(text)
        os.chmod(self.dbd_conf, 0o600)

    def start(self):
        self.c.write_conf()
        if self.c.auth == "slurm":
            self.c.write_key(os.path.join(self.c.dir, "etc", "slurm.key"))
        else:
            self.c.munged, _ = self.c.start_munged()
        self.db.start()
        self.write_dbd_conf()
        self.start_dbd()

    def start_dbd(self, wait=True):
        argv = [self.dbd_bin(), "-D"]
        self.dbd = self.c._spawn("slurmdbd", argv)
        if not wait:
            return self.dbd
        deadline = time.time() + 60
        while time.time() < deadline:
            if not self.dbd.alive():
                break
            r = self.sacctmgr("-n", "-P", "show", "qos", "format=name")
            if r.rc == 0:
                return self.dbd
            time.sleep(0.2)
        raise cl.ClusterError("slurmdbd did not come up: " +
                              self.c._tail(self.dbd.out_path))

    def start_cluster(self):
        """slurmctld and every slurmd (after start()), until all idle."""
        for n in self.c.node_names:
            os.makedirs(os.path.join(self.dir, "spool", n), exist_ok=True)
        self.c.start_ctld()
        for n in self.c.node_names:
            self.c.start_slurmd(n)
        self.c.wait_ready()

    def sacct(self, *args, user=None, timeout=60):
        return self.c.run([self.c.bins["sacct"]] + list(args), user=user,
                          timeout=timeout)

    def stop_dbd(self, sig=signal.SIGTERM):
        rc = self.c.stop_daemon(self.dbd, sig=sig)
        self.dbd = None
        return rc

    def restart_dbd(self):
        self.stop_dbd()
        return self.start_dbd()

    def sacctmgr(self, *args, user=None, input=None, timeout=60):
        return self.c.run([self.sacctmgr_bin()] + list(args), user=user,
                          input=input, timeout=timeout)

    def dbd_log_text(self):
        try:
            with open(self.dbd_log, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def stop(self):
        try:
            if self.dbd is not None:
                self.stop_dbd()
        finally:
            try:
                self.db.stop()
            finally:
                self.c.stop()

    def cleanup(self):
        self.c.cleanup()

    def finish(self):
        """End of a test or module: stop everything, fail it if any
        process of the cluster wrote a sanitizer report (the directory is
        then kept), else remove the directory."""
        import pytest

        self.stop()
        reports = self.c.sanitizer_reports()
        if reports:
            pytest.fail("sanitizer reports in %s:\n%s" % (self.dir, "\n".join(
                "--- %s ---\n%s" % (p, t[:4000]) for p, t in reports[:5])),
                pytrace=False)
        self.cleanup()
