"""The README's main job: the guided demo answers its questions on a real Neo4j."""

from __future__ import annotations

import subprocess
import sys


def test_demo_answers_who_as_of_on_whose_word_and_what_went_stale(cli_env):
    result = subprocess.run([sys.executable, "-m", "credo", "demo"], env=cli_env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "on 2024-03-01, as we knew it on 2024-04-01  → Alice (disputed)" in out
    assert "on 2024-03-20, as we knew it now            → Bob" in out
    assert "maria (human_input) in session crm-chat, message #1" in out and "“Alice owns the Acme account”" in out
    assert "stored as a hypothesis" in out and "now confirmed" in out
    assert "stale rule   \"Don't drop customer_legacy in production\"" in out
    assert "stale summary 'deployment notes'" in out
    rebuilt = out.split("the notes are rebuilt")[1]
    assert "customer_legacy" not in rebuilt.split("as of 2024-08-01")[0]
    assert "(3 rules)" in out
    # each summary prints its heading once: the built notes and the rebuilt notes
    assert out.count("deployment notes:") == 2, out
