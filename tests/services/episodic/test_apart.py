"""Episodes stay apart from semantic facts (DESIGN §9): an episode says what happened once, a semantic fact what holds.
A semantic write with the same subject, predicate and (other) object as a stored episode is admitted without
conflict, one in the same words neither reinforces nor joins it, a correction of a semantic fact never conflicts
with an episode in its slot, and a range write never splits one."""

from __future__ import annotations


def _episode(store, status: str, when: str = "2025-03-01T09:00:00+00:00"):
    return store.add_fact("deploy pipeline", "status", status, kind="episodic", valid_from=when,
                          statement=f"the deploy pipeline was {status}")


def test_a_semantic_fact_is_admitted_without_conflict_beside_an_episode_of_its_slot(store, clock):
    # given an episode: the deploy pipeline was red on 1 March
    clock.at("2025-03-02T12:00:00+00:00")
    episode = _episode(store, "red")
    # when a semantic fact says its status is green (single-valued predicate, another object)
    fact = store.add_fact("deploy pipeline", "status", "green", valid_from="2025-03-02")
    # then it is admitted, with no conflict, and the episode is as it was
    assert fact.state == "active" and fact.kind == "semantic"
    assert store.conflicts() == []
    assert [(v.version_id, v.state) for v in store.history(episode.fact_id)] == [(episode.version_id, "active")]
    # and correcting the semantic fact to a third object does not meet the episode either
    corrected = store.correct_fact(fact.fact_id, object="amber")
    assert corrected.state == "active" and store.conflicts() == []


def test_a_semantic_fact_in_an_episodes_words_neither_reinforces_nor_joins_it(store, clock):
    # given an episode
    clock.at("2025-03-02T12:00:00+00:00")
    episode = _episode(store, "red")
    # when a semantic fact is written with the same subject, predicate, object and statement
    fact = store.add_fact("deploy pipeline", "status", "red", valid_from="2025-03-01T09:00:00+00:00",
                          statement="the deploy pipeline was red")
    # then it is a fact of its own, and the episode keeps its one version, not reinforced, with no alias
    assert fact.fact_id != episode.fact_id and fact.kind == "semantic"
    [kept] = store.history(episode.fact_id)
    assert (kept.version_id, kept.state, kept.aliases) == (episode.version_id, "active", ())


def test_a_range_write_never_splits_an_episode(store, clock):
    clock.at("2025-03-10T12:00:00+00:00")
    episode = _episode(store, "red")
    store.write_range("deploy pipeline", "status", "green", valid_from="2025-03-02", valid_to="2025-03-05")
    assert [v.version_id for v in store.history(episode.fact_id)] == [episode.version_id]
