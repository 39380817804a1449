"""Runtime dispatch of the hot core (issue 16; cpp/bits.hpp's XUELIU_HOT_DISPATCH): a portable
build of x86-64 GCC >= 12 on glibc carries clones of batch is_win / waits for baseline x86-64,
POPCNT and x86-64-v3, and runs the best one this CPU has. That the clones answer alike is
benchmarks/test_bench_dispatch.py's test_every_build_gives_identical_answers (it builds the
baseline-only and -march=native variants to compare with, which takes minutes once)."""

from __future__ import annotations

import platform
import re
import sys

import xueliu._core as core

# What GCC's x86-64-v3 level requires (its __builtin_cpu_supports("x86-64-v3") test), as
# /proc/cpuinfo names the flags: x86-64-v2 (cx16, lahf_lm, popcnt, sse4_1, sse4_2, ssse3) plus
# avx, avx2, bmi1, bmi2, f16c, fma, abm (lzcnt), movbe, xsave.
V3_FLAGS = {"cx16", "lahf_lm", "popcnt", "sse4_1", "sse4_2", "ssse3", "avx", "avx2", "bmi1",
            "bmi2", "f16c", "fma", "abm", "movbe", "xsave"}


def _gcc_major(compiler: str) -> int:
    m = re.match(r"gcc (\d+)", compiler)
    return int(m.group(1)) if m else 0


def _cpu_flags() -> set[str]:
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        line = next(ln for ln in f if ln.startswith("flags"))
    return set(line.split(":", 1)[1].split())


def test_a_portable_build_never_claims_the_native_one():
    info = core.dispatch_info()
    assert info["build"] in ("dispatch", "portable")  # -march=native is for benchmarks only
    if info["build"] == "portable":
        assert info["clones"] == [] and info["selected"] == ""


def test_an_x86_64_gcc_glibc_build_dispatches_to_the_best_clone_this_cpu_runs():
    info = core.dispatch_info()
    dispatching = (platform.machine() in ("x86_64", "AMD64") and sys.platform == "linux"
                   and platform.libc_ver()[0] == "glibc" and _gcc_major(info["compiler"]) >= 12)
    assert (info["build"] == "dispatch") == dispatching, info
    if not dispatching:
        return
    assert info["clones"] == ["default", "popcnt", "arch=x86-64-v3"]
    flags = _cpu_flags()
    want = ("arch=x86-64-v3" if V3_FLAGS <= flags else "popcnt" if "popcnt" in flags
            else "default")
    assert info["selected"] == want
