"""A PEP 517 build backend in the standard library only, so `pip install ./clients/python` works offline in a fresh
venv (no setuptools or wheel needed). It builds a pure-Python wheel (and an sdist) of the options_research package."""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "options_research"


def _project() -> Dict[str, str]:
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]
    fields = dict(re.findall(r'^([a-z-]+) = "([^"]*)"', section, re.M))
    fields["classifiers"] = "\n".join(re.findall(r'^\s+"([^"]+)",', section.split("classifiers", 1)[1], re.M))
    return fields


def _metadata() -> str:
    p = _project()
    with open(os.path.join(ROOT, p["readme"]), encoding="utf-8") as f:
        readme = f.read()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {p['name']}",
        f"Version: {p['version']}",
        f"Summary: {p['description']}",
        f"Requires-Python: {p['requires-python']}",
        *(f"Classifier: {c}" for c in p["classifiers"].splitlines()),
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + readme


def _package_files() -> List[Tuple[str, str]]:
    """(path in the archive, path on disk) of every module and py.typed, no bytecode."""
    out = []
    base = os.path.join(ROOT, PACKAGE)
    for name in sorted(os.listdir(base)):
        if name.endswith(".py") or name == "py.typed":
            out.append((f"{PACKAGE}/{name}", os.path.join(base, name)))
    return out


def _dist_name() -> str:
    p = _project()
    return f"{p['name'].replace('-', '_')}-{p['version']}"


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    dist = _dist_name()
    filename = f"{dist}-py3-none-any.whl"
    info = f"{dist}.dist-info"
    entries: List[Tuple[str, bytes]] = []
    for arcname, path in _package_files():
        with open(path, "rb") as f:
            entries.append((arcname, f.read()))
    entries.append((f"{info}/METADATA", _metadata().encode("utf-8")))
    entries.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: stdlib_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    record = "".join(f"{n},{_digest(d)},{len(d)}\n" for n, d in entries) + f"{info}/RECORD,,\n"
    entries.append((f"{info}/RECORD", record.encode("utf-8")))
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    return filename


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    dist = _dist_name()
    filename = f"{dist}.tar.gz"
    files = [(n, p) for n, p in _package_files()]
    for extra in ("pyproject.toml", "README.md", "CHANGELOG.md", "_build/stdlib_backend.py"):
        files.append((extra, os.path.join(ROOT, extra)))
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for arcname, path in files:
            tar.add(path, arcname=f"{dist}/{arcname}", recursive=False)
        info = tarfile.TarInfo(f"{dist}/PKG-INFO")
        data = _metadata().encode("utf-8")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return filename
