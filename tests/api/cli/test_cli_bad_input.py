"""The `credo` command answers bad input with one error line naming the field, never a traceback: text that is not
valid Unicode (a non-UTF-8 byte in an argument arrives as a lone surrogate), integers past 64 bits, text past 16 KiB,
an empty scope key."""

from __future__ import annotations

import subprocess
import sys

import pytest

CREDO = [sys.executable, "-m", "credo"]
HUGE = str(2**70).encode()


@pytest.mark.parametrize("argv, field", [
    ([b"fact", b"add", b"Acme \xff", b"owned_by", b"Alice"], "subject"),
    ([b"fact", b"add", b"Acme", b"owned_by", b"Alice", b"--statement", b"\xed\xa0\x80"], "statement"),
    ([b"fact", b"add", b"Acme", b"owned_by", b"Alice", b"--statement", b"x" * 20_000], "statement"),
    ([b"audit", b"--after", HUGE], "after"),
    ([b"maintain", b"--episodic-ttl-days", HUGE], "episodic_ttl_days"),
    ([b"search", b"billing", b"--limit", HUGE], "limit"),
    ([b"facts", b"Acme", b"--scope", b"=prod"], "scope"),
], ids=["surrogate subject", "surrogate statement", "20 KB statement", "huge after", "huge ttl", "huge limit",
        "empty scope key"])
def test_bad_input_is_one_error_line_naming_the_field(cli_env, argv, field):
    done = subprocess.run([arg.encode() for arg in CREDO] + argv, env=cli_env, capture_output=True, timeout=120)
    stderr = done.stderr.decode("utf-8", "backslashreplace")
    assert done.returncode == 1, stderr
    assert "Traceback" not in stderr
    [line] = stderr.strip().splitlines()
    assert line.startswith(f"error: {field}"), line
