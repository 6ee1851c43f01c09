"""A PEP 517 build backend in the standard library only.

`pip install ./contrib/python` builds in an isolated environment and
would fetch setuptools from an index; a machine that has only Debian's
packages (no index) could not install the SDK.  The package is pure
Python, so a wheel is a zip of sluice/ plus the dist-info files, which
this module writes itself.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "sluice"
SUMMARY = ("Run Python functions as jobs on a Sluice (or Slurm) cluster: "
           "@task, .map(), .after(), @workflow, Cluster")
ENTRY_POINTS = "[console_scripts]\nsluice = sluice.__main__:console\n"


def _version():
    with open(os.path.join(HERE, NAME, "__init__.py")) as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def _metadata():
    with open(os.path.join(HERE, "README.md")) as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
            "Requires-Python: >=3.11\nProvides-Extra: by-value\n"
            "Requires-Dist: cloudpickle; extra == \"by-value\"\n"
            "Description-Content-Type: text/markdown\n\n%s"
            % (NAME, _version(), SUMMARY, readme))


def _package_files():
    out = []
    for root, dirs, files in os.walk(os.path.join(HERE, NAME)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(root, f)
                out.append((os.path.relpath(p, HERE).replace(os.sep, "/"), p))
    return out


def _hash(data):
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + d.decode()


def _dist_info(version):
    return "%s-%s.dist-info" % (NAME, version)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory,
                                     config_settings=None):
    di = _dist_info(_version())
    os.makedirs(os.path.join(metadata_directory, di), exist_ok=True)
    with open(os.path.join(metadata_directory, di, "METADATA"), "w") as f:
        f.write(_metadata())
    return di


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    version = _version()
    di = _dist_info(version)
    name = "%s-%s-py3-none-any.whl" % (NAME, version)
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w",
                         zipfile.ZIP_DEFLATED) as z:
        def add(arc, data):
            z.writestr(arc, data)
            record.append("%s,%s,%d" % (arc, _hash(data), len(data)))
        for arc, path in _package_files():
            with open(path, "rb") as f:
                add(arc, f.read())
        add(di + "/METADATA", _metadata().encode())
        add(di + "/WHEEL", b"Wheel-Version: 1.0\nGenerator: sluice_build\n"
            b"Root-Is-Purelib: true\nTag: py3-none-any\n")
        add(di + "/entry_points.txt", ENTRY_POINTS.encode())
        record.append(di + "/RECORD,,")
        z.writestr(di + "/RECORD", "\n".join(record) + "\n")
    return name


def build_sdist(sdist_directory, config_settings=None):
    version = _version()
    base = "%s-%s" % (NAME, version)
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as t:
        for rel in ["pyproject.toml", "README.md",
                    "build_backend/sluice_build.py"]:
            t.add(os.path.join(HERE, rel), arcname=base + "/" + rel)
        for arc, path in _package_files():
            t.add(path, arcname=base + "/" + arc)
        info = _metadata().encode()
        ti = tarfile.TarInfo(base + "/PKG-INFO")
        ti.size = len(info)
        t.addfile(ti, io.BytesIO(info))
    return name
