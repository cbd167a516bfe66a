"""The class as handed in: one folder or archive per student, unpacked safely, read for shipping.

Archives are unpacked under ``OUT/unpacked`` with every member checked (no
path out of the folder, no links or devices, at most 64 MiB).  A submission
goes to a worker as its files' bytes (``read_files``), so a worker on another
machine needs no shared file system.
"""

from __future__ import annotations

import shutil
import tarfile
import zipfile
from pathlib import Path

ARCHIVES = (".zip", ".tar", ".tar.gz", ".tgz")
MAX_UNPACKED = 64 * 1024 * 1024  # bytes one student's archive may unpack to


def _archive_stem(path: Path) -> str | None:
    for ext in ARCHIVES:
        if path.name.endswith(ext):
            return path.name[: -len(ext)]
    return None


def _safe_members(names: list[tuple[str, int]], dest: Path) -> None:
    total = 0
    for name, size in names:
        target = (dest / name).resolve()
        if not target.is_relative_to(dest.resolve()):
            raise ValueError(f"archive member {name!r} points outside the archive")
        total += size
        if total > MAX_UNPACKED:
            raise ValueError("archive unpacks to more than 64 MiB")


def unpack(archive: Path, dest: Path) -> Path:
    """Unpack one student's archive safely; the folder holding their sources."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            _safe_members([(i.filename, i.file_size) for i in z.infolist()], dest)
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            members = [m for m in t.getmembers() if m.isfile() or m.isdir()]  # no links, no devices
            _safe_members([(m.name, m.size) for m in members], dest)
            t.extractall(dest, members=members, filter="data")
    entries = [p for p in dest.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return dest


def discover(root: Path, out: Path) -> list[tuple[str, Path | None, str]]:
    """(name, folder or None, problem) for every submission under ``root``."""
    found = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            found.append((entry.name, entry, ""))
        elif (stem := _archive_stem(entry)) is not None:
            try:
                found.append((stem, unpack(entry, out / "unpacked" / stem), ""))
            except (ValueError, OSError, zipfile.BadZipFile, tarfile.TarError) as err:
                found.append((stem, None, f"could not unpack {entry.name}: {err}"))
    return found


MAX_FILES = 2000  # files one submission may ship to a worker


def read_files(folder: Path) -> dict[str, bytes]:
    """Every regular file under ``folder`` (relative POSIX path -> bytes): what a worker grades.
    Links are not followed (a link could name any file of the staff's machine)."""
    files: dict[str, bytes] = {}
    total = 0
    for p in sorted(folder.rglob("*")):
        if p.is_symlink() or not p.is_file():
            continue
        rel = p.relative_to(folder).as_posix()
        if rel.startswith(".git/"):
            continue
        data = p.read_bytes()
        total += len(data)
        if total > MAX_UNPACKED or len(files) >= MAX_FILES:
            raise ValueError(f"the submission holds more than {MAX_UNPACKED >> 20} MiB or {MAX_FILES} files")
        files[rel] = data
    return files


def write_files(files: dict[str, bytes], dest: Path) -> None:
    """``read_files``'s output written back under ``dest`` (a submission on a worker, a report folder on the
    client), refusing any path out of it."""
    for rel, data in files.items():
        target = (dest / rel).resolve()
        if not target.is_relative_to(dest.resolve()):
            raise ValueError(f"file {rel!r} points outside {dest.name}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
