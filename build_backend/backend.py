"""The build backend: setuptools', asking for mypy only when a build is compiled.

``STREAM_CHUNKER_COMPILE=1 pip install .`` compiles the hot modules with mypyc
(``setup.py`` names them). Such a build needs mypy; a plain install should
neither fetch it nor wait for it, so it is asked for only then (black's and
mypy's own builds do the same through their build hooks). An editable install
is never compiled: the compiled modules would shadow the sources they were
made from, and an edit would silently not run.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F401,F403 -- every hook not redefined here is setuptools' own
from setuptools.config.pyprojecttoml import read_configuration

COMPILE = "STREAM_CHUNKER_COMPILE"
MYPYC = "mypy>=2.3"
"""mypyc comes with mypy: the versions the compiled build was tested with."""

Settings = Optional[Dict[str, Any]]


def compiling() -> bool:
    """Whether this build is the compiled one: ``STREAM_CHUNKER_COMPILE`` is ``1``."""
    value = os.environ.get(COMPILE, "0")
    if value not in ("0", "1", ""):
        raise SystemExit(f"{COMPILE}={value!r}: set it to 1 for the compiled build, or 0 (or leave it unset)")
    return value == "1"


_compiling_wheel = False


def compiling_wheel() -> bool:
    """Whether ``setup.py`` runs to build the compiled wheel: setuptools runs it
    for the build's requirements and metadata too, before mypy is there and
    when compiling would be wasted."""
    return _compiling_wheel


def get_requires_for_build_wheel(config_settings: Settings = None) -> List[str]:
    requires: List[str] = build_meta.get_requires_for_build_wheel(config_settings)
    if not compiling():
        return requires
    # mypyc must see the types of what the package imports, as mypy --strict does.
    project = read_configuration("pyproject.toml", expand=False)["project"]
    return requires + [MYPYC] + list(project["dependencies"])


def build_wheel(wheel_directory: str, config_settings: Settings = None,
                metadata_directory: Optional[str] = None) -> str:
    global _compiling_wheel
    _compiling_wheel = compiling()
    built: str = build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)
    return built


def _editable_is_pure() -> None:
    if compiling():
        raise SystemExit(f"an editable install is always pure Python ({COMPILE}=1 would let compiled modules "
                         f"shadow the sources): install the compiled build with `{COMPILE}=1 pip install .`")


def get_requires_for_build_editable(config_settings: Settings = None) -> List[str]:
    _editable_is_pure()
    requires: List[str] = build_meta.get_requires_for_build_editable(config_settings)
    return requires


def build_editable(wheel_directory: str, config_settings: Settings = None,
                   metadata_directory: Optional[str] = None) -> str:
    _editable_is_pure()
    built: str = build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
    return built
