"""The Docker image's pins: base image by digest, every dependency locked with hashes and installed
before the source, and a healthcheck of the update loop (README "Operating")."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
LOCK = (ROOT / "requirements.lock").read_text(encoding="utf-8")


def locked() -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of every entry of requirements.lock."""
    out: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", LOCK):
        m = re.match(r"([A-Za-z0-9_.-]+)==([^\s\\]+)", block)
        if m:
            out[canonicalize_name(m.group(1))] = (m.group(2), block.count("--hash=sha256:"))
    return out


def test_every_runtime_dependency_is_locked_with_hashes_at_an_allowed_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(r) for r in project["dependencies"] + project["optional-dependencies"]["metrics"]]
    lock = locked()
    assert len(lock) >= 20
    assert all(hashes >= 1 for _, hashes in lock.values()), [n for n, (_, h) in lock.items() if h == 0]
    for req in wanted:
        version, _ = lock[canonicalize_name(req.name)]
        assert req.specifier.contains(version), (req, version)
    # PTB's extras: job-queue, rate-limiter, webhooks
    assert {"apscheduler", "aiolimiter", "tornado"} <= lock.keys()
    # what builds the project itself (installed without build isolation) is locked too
    assert {"setuptools", "wheel"} <= lock.keys()


def test_base_image_is_pinned_by_digest_and_dependencies_install_before_the_source():
    images = re.findall(r"^ARG PYTHON_IMAGE=(\S+)$", DOCKERFILE, flags=re.M)
    assert len(images) == 1 and re.fullmatch(r"python:3\.11\.\d+-slim-bookworm@sha256:[0-9a-f]{64}", images[0])
    assert re.findall(r"^FROM (\S+)", DOCKERFILE, flags=re.M) == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]
    lines = DOCKERFILE.splitlines()
    install = next(i for i, line in enumerate(lines) if "--require-hashes" in line and "requirements.lock" in line)
    first_source = next(i for i, line in enumerate(lines) if re.match(r"COPY (engine|render|kwx_bot|pyproject)", line))
    assert install < first_source
    assert "--no-deps --no-build-isolation ." in DOCKERFILE  # the project adds no unlocked package


def test_the_healthcheck_asks_the_liveness_endpoint_not_the_database():
    check = DOCKERFILE[DOCKERFILE.index("HEALTHCHECK") :]
    check = check[: check.index("ENTRYPOINT")]
    assert "/healthz" in check and "urllib.request" in check and "check-db" not in check and "curl" not in check
    assert "KWX_HEALTH_PORT=8080" in DOCKERFILE
