"""The as-of answer: the Store's `AsOf` list and the model every surface sends (`AsOfAnswer`) make each other."""

from __future__ import annotations

from credo.schema.facts import AsOf, Fact, Unreadable


def test_the_answer_model_and_the_store_list_convert_one_into_the_other():
    # given the Store's answer: an undated fact listed before a dated one, and a skipped version
    dated = Fact.model_construct(fact_id="f_dated", valid_from=object())
    undated = Fact.model_construct(fact_id="f_undated", valid_from=None)
    skipped = Unreadable(version_id="v_bad", fact_id="f_bad", field="confidence", reason="not a number")
    found = AsOf([undated, dated], [skipped])
    # when it becomes the model the surfaces send, and that model the Store's list again
    answer = found.answer(next_cursor="c")
    back = answer.as_of()
    # then the model holds the dated answer and the undated apart; the list comes back dated first, undated after
    assert [f.fact_id for f in answer.items] == ["f_dated"] and [f.fact_id for f in answer.undated] == ["f_undated"]
    assert answer.unreadable == [skipped] and answer.next_cursor == "c"
    assert isinstance(back, AsOf) and [f.fact_id for f in back] == ["f_dated", "f_undated"]
    assert [f.fact_id for f in back.undated] == ["f_undated"] and back.unreadable == [skipped]
