"""A throwaway PostgreSQL server for the tests, started in a temporary directory.

The binaries come from the ``pgserver`` wheel (test extras: works on a fresh machine with
only Python and pip, and offline once installed), else from the machine's PostgreSQL
(``/usr/lib/postgresql/*/bin``, or ``pg_config --bindir``). The server listens on a unix
socket in its own directory only (no TCP port at all). PostgreSQL refuses to run as root, so
under root it runs as the unprivileged ``nobody`` user.

``server = PgTestServer.start()`` ... ``server.url(dbname)`` ... ``server.stop()``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path


class NoServer(RuntimeError):
    """No PostgreSQL server could be started (the message says why)."""


def find_bindir() -> Path:
    """Where ``initdb``, ``pg_ctl`` and ``postgres`` are (COSMODROME_PG_BIN first)."""
    candidates: list[Path] = []
    if os.environ.get("COSMODROME_PG_BIN"):
        candidates.append(Path(os.environ["COSMODROME_PG_BIN"]))
    spec = importlib.util.find_spec("pgserver")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            candidates.append(Path(loc) / "pginstall" / "bin")
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if out.returncode == 0:
            candidates.append(Path(out.stdout.strip()))
    for path in candidates:
        if (path / "initdb").is_file() and (path / "pg_ctl").is_file():
            return path
    raise NoServer(
        "no PostgreSQL binaries: install the test extras (pip install -e '.[test]', which "
        "brings the pgserver wheel) or PostgreSQL itself"
    )


@dataclass
class PgTestServer:
    bindir: Path
    root: Path
    user: str | None  # the system user the server runs as (None: this one)

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root / "sock"

    def _can_run(self) -> bool:
        try:
            self._run(str(self.bindir / "postgres"), "--version")
        except (NoServer, OSError):
            return False
        return True

    def _run(self, *args: str) -> None:
        kwargs: dict[str, object] = {}
        if self.user is not None:
            kwargs["user"] = self.user
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        out = subprocess.run(
            args,
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
            timeout=120,
            **kwargs,  # type: ignore[call-overload]
        )
        if out.returncode != 0:
            raise NoServer(f"{Path(args[0]).name} failed: {out.stderr.strip() or out.stdout}")

    @classmethod
    def start(cls, *, durable: bool = False) -> PgTestServer:
        """Start a server; ``durable`` keeps PostgreSQL's own fsync and synchronous commit
        (for benchmarks: the tests turn them off to go fast)."""
        bindir = find_bindir()
        root = Path(tempfile.mkdtemp(prefix="cosmo-pg-"))
        user = "nobody" if os.geteuid() == 0 else None
        server = cls(bindir, root, user)
        try:
            server._boot(durable)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        return server

    def _boot(self, durable: bool) -> None:
        self.socket_dir.mkdir()
        if self.user is not None:
            import pwd

            entry = pwd.getpwnam(self.user)
            for path in (self.root, self.socket_dir):
                os.chown(path, entry.pw_uid, entry.pw_gid)
            if not self._can_run():
                # The binaries sit where that user cannot reach (a virtualenv under /root):
                # a copy of the installation (bin, lib, share: ~30 MB) in the server's folder.
                # The wheel's shared libraries sit beside its package (pgserver.libs), found
                # by a relative rpath: the copy keeps the same layout.
                install, package = self.bindir.parent, self.bindir.parent.parent
                site = self.root / "site"
                shutil.copytree(install, site / package.name / install.name, symlinks=True)
                libs = package.parent / f"{package.name}.libs"
                if libs.is_dir():
                    shutil.copytree(libs, site / libs.name, symlinks=True)
                for path in (site, site / package.name):
                    os.chmod(path, 0o755)
                self.bindir = site / package.name / install.name / self.bindir.name
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        # Tests need no durability: fsync off makes them fast. No TCP at all.
        opts = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.socket_dir}' "
            "-c max_connections=200"
        )
        if not durable:
            opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            opts,
            "-w",
            "-t",
            "60",
            "start",
        )

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.socket_dir}"

    def fresh_db_name(self) -> str:
        return "t_" + uuid.uuid4().hex[:12]

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
