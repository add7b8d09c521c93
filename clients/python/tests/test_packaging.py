"""`pip install ./clients/python` works offline in a fresh standard-library venv: the in-tree backend needs nothing."""
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest
import zipfile

from options_research import __version__

ROOT = pathlib.Path(__file__).resolve().parents[1]


class OfflineInstall(unittest.TestCase):
    def test_the_wheel_holds_every_module_and_the_metadata(self) -> None:
        sys.path.insert(0, str(ROOT / "_build"))
        try:
            import stdlib_backend  # type: ignore[import-not-found]
        finally:
            sys.path.pop(0)
        with tempfile.TemporaryDirectory() as out:
            name = stdlib_backend.build_wheel(out)
            self.assertEqual(name, f"options_research-{__version__}-py3-none-any.whl")
            with zipfile.ZipFile(os.path.join(out, name)) as z:
                names = set(z.namelist())
                metadata = z.read(f"options_research-{__version__}.dist-info/METADATA").decode()
        modules = {f"options_research/{p.name}" for p in (ROOT / "options_research").iterdir() if p.suffix == ".py"}
        self.assertTrue(modules | {"options_research/py.typed"} <= names, names)
        self.assertFalse([n for n in names if "__pycache__" in n or n.endswith(".pyc")])
        self.assertIn(f"Version: {__version__}\n", metadata)
        self.assertIn("Name: options-research\n", metadata)

    def test_pip_installs_it_offline_into_a_fresh_venv(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            venv = pathlib.Path(tmp) / "v"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
            py = str(venv / ("Scripts" if os.name == "nt" else "bin") / "python")
            env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1"}
            done = subprocess.run([py, "-m", "pip", "install", str(ROOT)], env=env, capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
            check = "import options_research as o; print(o.__version__, o.Client, o.RawResponse)"
            shown = subprocess.run([py, "-c", check], cwd=tmp, capture_output=True, text=True, timeout=60)
            self.assertEqual(shown.returncode, 0, shown.stderr)
            self.assertTrue(shown.stdout.startswith(f"{__version__} "), shown.stdout)
            self.assertIn(str(venv), subprocess.run([py, "-c", "import options_research; print(options_research.__file__)"], cwd=tmp, capture_output=True, text=True).stdout)


if __name__ == "__main__":
    unittest.main()
