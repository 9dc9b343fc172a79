"""Issue 4 acceptance 4: multi-segment extraction commits only the final set, atomically; admission."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timezone

import pytest

from credo.schema.errors import ConflictError, CredoError, EvidenceRefused, NotFound
from credo.schema.provenance import Candidate, Proposal
from credo.services.adapters.extractors import OpenAIExtractor, ScriptedExtractor
from credo.settings import Settings
from tests.messages import messages

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=timezone.utc)


msg = messages(T0, "alice")


CONVERSATION = [
    msg(0, "Which database does the ledger service use?"),
    msg(1, "It looks like Postgres 13, judging by the driver.", origin="agent", role="assistant", author="agent"),
    msg(2, "Hmm, maybe it is still MySQL."),
    msg(3, "I checked the config: the ledger uses Postgres 15.", origin="agent", role="assistant", author="agent"),
    msg(4, "Right, the ledger runs on Postgres 15."),
    msg(5, "Thanks, that's all."),
]

TENTATIVE = Candidate(statement="The ledger service may use MySQL", subject="ledger", predicate="database",
                      object="MySQL", quote="maybe it is still MySQL", source_index=2)
FINAL = Candidate(statement="The ledger service runs on Postgres 15", subject="ledger", predicate="database",
                  object="Postgres 15", quote="the ledger runs on Postgres 15", source_index=4)
ACCEPTED = Candidate(statement="The ledger config names Postgres 15", subject="ledger config", predicate="names",
                     object="Postgres 15", source_index=3, accepted_index=4)


def consumed(store, session="c"):
    return [m.consumed_by for m in _messages(store, session)]


def _messages(store, session):
    from credo.graph.gate import sources as source_repo
    return store._ctx.read(lambda tx: source_repo.session_messages(tx, store.tenant, session))


def candidates_of(store):
    return store.facts(states=["candidate", "active", "conflicted"], include_undated=True)


@pytest.fixture
def session(store, clock):
    clock.at("2025-05-01T12:00:00+00:00")
    store.ingest_messages("c", CONVERSATION)
    return "c"


def test_only_the_final_revised_set_is_committed_and_nothing_is_consumed_while_segments_run(store, session):
    seen_consumed = []

    def first(segment, candidates):
        seen_consumed.append(consumed(store))
        return [TENTATIVE]

    def last(segment, candidates):
        seen_consumed.append(consumed(store))
        assert candidates == [TENTATIVE]
        return Proposal(candidates=[FINAL, ACCEPTED], episode="Ledger DB discussed; settled on Postgres 15.")

    extractor = ScriptedExtractor([first, last])
    result = store.extract(session, extractor, segment_size=3)
    # then the extractor saw two segments and no message was consumed while they ran
    assert [idx for idx, _ in extractor.calls] == [[0, 1, 2], [3, 4, 5]]
    assert seen_consumed == [[None] * 6, [None] * 6]
    # and only the final candidates were committed, as candidates, with their evidence
    assert sorted(f.statement for f in result.facts) == sorted([FINAL.statement, ACCEPTED.statement])
    assert all(f.state == "candidate" for f in result.facts)
    assert {f.statement: f.evidence for f in result.facts} == {FINAL.statement: "stated", ACCEPTED.statement: "accepted"}
    assert "MySQL" not in [f.value for f in candidates_of(store)]
    assert consumed(store) == [result.extraction_id] * 6 and result.consumed == [0, 1, 2, 3, 4, 5]
    # candidates are never served as current knowledge
    assert store.facts("ledger", "database", include_undated=True) == []
    accepted = next(f for f in result.facts if f.evidence == "accepted")
    tree = store.why(accepted.fact_id)
    assert [s.index for s in tree.sources] == [3] and tree.accepted_in.index == 4


def test_a_later_segment_that_raises_leaves_no_fact_and_no_consumed_mark(store, session):
    extractor = ScriptedExtractor([[TENTATIVE], RuntimeError("model timed out")])
    with pytest.raises(RuntimeError, match="model timed out"):
        store.extract(session, extractor, segment_size=3)
    assert candidates_of(store) == []
    assert consumed(store) == [None] * 6
    # and the claim was released: a new extraction can run
    assert len(store.extract(session, ScriptedExtractor([[FINAL]]), segment_size=10).facts) == 1


def test_a_bad_evidence_pointer_in_the_final_set_commits_nothing(store, session):
    bad = Candidate(statement="The user decided to drop MySQL", subject="user", predicate="decided", object="drop MySQL",
                    source_index=3, accepted_index=0)  # message 0 is a pure question
    with pytest.raises(EvidenceRefused) as err:
        store.extract(session, ScriptedExtractor([[FINAL, bad]]), segment_size=10)
    assert err.value.field == "candidates[1].accepted_index"
    assert candidates_of(store) == [] and consumed(store) == [None] * 6


def test_two_concurrent_extractions_of_the_same_messages_exactly_one_commits(store, session):
    barrier = threading.Barrier(2, timeout=10)
    outcomes: dict[str, object] = {}

    def slow(segment, candidates):
        return [FINAL]

    def run(name):
        try:
            barrier.wait()
            outcomes[name] = store.extract(session, ScriptedExtractor([slow]), segment_size=10)
        except ConflictError as exc:
            outcomes[name] = exc

    threads = [threading.Thread(target=run, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    # then exactly one commits; the other is refused (it raced the claim) or, if the first had already
    # committed before it claimed, finds nothing left to extract: either way it writes nothing
    assert sorted(outcomes) == ["a", "b"]
    committed = [o for o in outcomes.values() if not isinstance(o, Exception) and o.facts]
    others = [o for o in outcomes.values() if o not in committed]
    assert len(committed) == 1 and len(others) == 1
    [other] = others
    assert isinstance(other, ConflictError) or (other.facts == [] and other.consumed == [] and other.episode_id is None)
    assert committed[0].consumed == [0, 1, 2, 3, 4, 5]
    assert len(candidates_of(store)) == 1


def test_an_extraction_started_while_another_holds_the_claim_is_refused(store, session):
    inner = []

    def nested(segment, candidates):
        with pytest.raises(ConflictError, match="holds the claim"):
            store.extract(session, ScriptedExtractor([[FINAL]]), segment_size=10)
        inner.append("refused")
        return [FINAL]

    result = store.extract(session, ScriptedExtractor([nested]), segment_size=10)
    assert inner == ["refused"] and len(result.facts) == 1 and len(candidates_of(store)) == 1


def test_a_message_arriving_mid_extraction_makes_the_commit_refuse(store, session):
    def meanwhile(segment, candidates):
        store.ingest_messages("c", [msg(6, "Wait, actually it's Postgres 16.")])
        return [FINAL]

    with pytest.raises(ConflictError, match="new messages arrived"):
        store.extract(session, ScriptedExtractor([meanwhile]), segment_size=10)
    assert candidates_of(store) == [] and consumed(store) == [None] * 7


def test_admit_serves_a_candidate_and_reject_keeps_it_out(store, session, clock):
    result = store.extract(session, ScriptedExtractor([[FINAL, ACCEPTED]]), segment_size=10)
    final = next(f for f in result.facts if f.statement == FINAL.statement)
    other = next(f for f in result.facts if f.statement == ACCEPTED.statement)
    admitted = store.admit(final.fact_id, by="alice")
    assert admitted.state == "active"
    assert [f.value for f in store.facts("ledger", "database", include_undated=True)] == ["Postgres 15"]
    assert [s.index for s in store.why(final.fact_id).sources] == [4]  # the evidence edge came along
    rejected = store.reject(other.fact_id, reason="not a durable fact")
    assert rejected.state == "rejected"
    assert store.facts("ledger config", "names", include_undated=True) == []


def test_extracting_an_unknown_session_is_not_found(store):
    with pytest.raises(NotFound, match="session not found: ghost"):
        store.extract("ghost", ScriptedExtractor([]))


# -- the OpenAI-compatible extractor against a local server replaying recorded responses ----------------
RECORDED = [
    {"candidates": [{"statement": "The ledger service may use MySQL", "subject": "ledger", "predicate": "database",
                     "object": "MySQL", "quote": "maybe it is still MySQL", "source_index": 2}],
     "episode": "The user asked which database the ledger uses."},
    {"candidates": [{"statement": "The ledger service runs on Postgres 15", "subject": "ledger",
                     "predicate": "database", "object": "Postgres 15", "quote": "the ledger runs on Postgres 15",
                     "source_index": 4, "accepted_index": None, "kind": "semantic"}],
     "episode": "Settled: the ledger runs on Postgres 15."},
]


@pytest.fixture
def replay_server(chat_endpoint):
    with chat_endpoint([json.dumps(r) for r in RECORDED]) as replay:
        yield replay


def test_openai_compatible_extractor_replays_recorded_responses(store, session, replay_server):
    settings = Settings(llm_base_url=replay_server.url, llm_model="recorded-model", llm_api_key="k")
    extractor = OpenAIExtractor(settings)
    try:
        result = store.extract(session, extractor, segment_size=3)
    finally:
        extractor.close()
    assert [f.statement for f in result.facts] == ["The ledger service runs on Postgres 15"]
    assert [r["path"] for r in replay_server.requests] == ["/v1/chat/completions"] * 2
    second = json.loads(replay_server.requests[1]["body"]["messages"][1]["content"])
    assert [m["index"] for m in second["segment"]] == [3, 4, 5]
    assert [c["object"] for c in second["candidates"]] == ["MySQL"]
    assert replay_server.requests[0]["body"]["response_format"] == {"type": "json_object"}


def test_a_malformed_model_reply_commits_nothing(store, session, replay_server):
    replay_server.replies[:] = [json.dumps(RECORDED[0])]  # the second call gets "not json"
    extractor = OpenAIExtractor(Settings(llm_base_url=replay_server.url, llm_model="recorded-model"))
    with pytest.raises(CredoError, match="not JSON"):
        store.extract(session, extractor, segment_size=3)
    extractor.close()
    assert candidates_of(store) == [] and consumed(store) == [None] * 6
