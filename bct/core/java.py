"""The Java runtime the worlds' games run in (TextWorldExpress and ScienceWorld each start a JVM per game,
through py4j): checking that one is there, and starting JVMs so that py4j can read their port."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import subprocess
import threading

from bct.core.errors import UserError

logging.getLogger("py4j").setLevel(logging.CRITICAL)  # its gateway start/stop chatter is not for users

# py4j reads the gateway's port from the JVM's first line of output; a JVM that first warns there (its
# perf-data file locked by another process, seen here: "[warning][perf,memops] Cannot use file
# /tmp/hsperfdata_root/...") fails to start. Without perf data there is no such file and no such warning.
if "-XX:-UsePerfData" not in os.environ.get("JAVA_TOOL_OPTIONS", ""):
    os.environ["JAVA_TOOL_OPTIONS"] = (os.environ.get("JAVA_TOOL_OPTIONS", "") + " -XX:-UsePerfData").strip()

# JAVA_TOOL_OPTIONS is the process's: one launch with options of its own at a time (data's processes launch one JVM
# at a time; play's launches, side by side in threads, take no options and no lock)
_LAUNCH = threading.Lock()

JAVA_HELP = (
    "TextWorldExpress and ScienceWorld need Java 11 or newer on PATH; install it with "
    "'sudo apt-get install -y openjdk-17-jre-headless' (Debian/Ubuntu) or 'brew install openjdk@17' (macOS)."
)


def check_java() -> None:
    java = shutil.which("java")
    if java is None:
        raise UserError(f"Java was not found. {JAVA_HELP}")
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    if m:
        major = int(m.group(1)) if m.group(1) != "1" else int(m.group(2) or 0)
        if major < 11:
            raise UserError(f"Java {major} was found. {JAVA_HELP}")


def kill_gateway(gateway) -> None:
    """End a py4j gateway's JVM that died or hangs, without waiting for it to answer (each step may fail: it is
    gone already)."""
    for end in (lambda: gateway.java_process.kill(), lambda: gateway.shutdown()):
        try:
            end()
        except Exception:
            pass


@contextlib.contextmanager
def java_options(extra: str):
    """JAVA_TOOL_OPTIONS with `extra` beside them while a JVM is launched (the worlds' launchers take no
    options of their own), as they were after."""
    if not extra:
        yield
        return
    with _LAUNCH:
        before = os.environ.get("JAVA_TOOL_OPTIONS")
        os.environ["JAVA_TOOL_OPTIONS"] = f"{before or ''} {extra}".strip()
        try:
            yield
        finally:
            if before is None:
                os.environ.pop("JAVA_TOOL_OPTIONS", None)
            else:
                os.environ["JAVA_TOOL_OPTIONS"] = before
